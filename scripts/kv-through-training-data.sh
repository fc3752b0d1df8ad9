#!/bin/bash
# The data of one kv run measured through training (docs/retrieval.md, "Sizing"): the run's
# metrics.jsonl and config beside the other sizing runs, then `posbias eval` and `posbias birth
# --inputs kv` at every checkpoint on one depth per pair, into the run's own folder. Read them
# with scripts/kv-through-training.py.
# Usage: scripts/kv-through-training-data.sh POSBIAS TRAIN_DIR NAME [DATA_DIR]
#   TRAIN_DIR  a finished `train --task kv` run with checkpoints (e.g. a sweep run's train/)
#   NAME       the run's name in DATA_DIR (docs/data/retrieval/sizing by default)
set -euo pipefail
if [ $# -lt 3 ] || [ $# -gt 4 ]; then
  echo "usage: $0 POSBIAS TRAIN_DIR NAME [DATA_DIR]" >&2
  exit 2
fi
posbias=$1 run=$2 name=$3 data=${4:-docs/data/retrieval/sizing}
[ -f "$run/summary.json" ] || { echo "$0: $run has no summary.json (not finished)" >&2; exit 1; }
length=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["config"]["length"])' \
  "$run/train.json")
mkdir -p "$data/$name"
cp "$run/metrics.jsonl" "$data/$name-metrics.jsonl"
python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["config"], sort_keys=True))' \
  "$run/train.json" > "$data/$name-config.json"
depths=0,33,67,100
"$posbias" eval --run "$run" --checkpoints all --lengths "$length" --depths "$depths" \
  --count 200 --json "$data/$name/eval-pairs.json"
"$posbias" birth --run "$run" --inputs kv --target answer --checkpoints all --depths "$depths" \
  --seeds 16 --json "$data/$name/influence.json" --csv "$data/$name/influence.csv" \
  --plot "$data/$name/influence"
