#!/usr/bin/env bash
# Regenerates the files docs/mitigations.md cites for the BOS sink token (remedy 4a).
#   birth: the bench's model shape at init (qwen2, 4 layers, d 64, 4 heads, MLP 256, exact,
#     8 seeds) reading W = 34 and 128 tokens (plain) and 35 and 129 (the sink at position 0 and
#     the same W tokens after it); seconds each.
#   train SEED ...: the retrieval bench's qwen2 RoPE configuration
#     (docs/data/retrieval/bench/grid-pos.json) with --sink, one run at a time on one thread,
#     measured as scripts/kv-bench.py measures the bench's runs (eval by depth and length, eval
#     at the pairs' depths, influence on the same inputs at every checkpoint). About 11 minutes
#     of training per run on an idle core, 20 to 40 on a shared one.
#   base SEED ...: the same measurements of the baselines, the same command without --sink
#     trained again in this session (BASE_RUNS, default out/mitigations/kv-baseline/sS; the
#     shipped bench runs do not reproduce), into sS-base-*.
# Then scripts/mitigations-sink-summary.py pairs them by seed.
# Usage: scripts/mitigations-sink-data.sh birth|train|base [SEED ...]   (POSBIAS=path/to/posbias,
#   default build/posbias; RUNS=dir, default out/sink; a run whose summary.json is there is not
#   trained again, one with train.json alone is resumed)
set -euo pipefail
cd "$(dirname "$0")/.."
data=docs/data/mitigations/sink
posbias=${POSBIAS:-build/posbias}
runs=${RUNS:-out/sink}
mode=${1:?usage: scripts/mitigations-sink-data.sh birth|train|base [SEED ...]}
shift
mkdir -p "$data" "$runs"
export OMP_NUM_THREADS=1
depths=0,10,20,30,40,50,60,70,80,90,100

if [ "$mode" = birth ]; then
  for length in 34 35 128 129; do
    "$posbias" birth --arch qwen2 --layers 4 --d-model 64 --heads 4 --kv-heads 4 --mlp 256 \
      --length "$length" --seeds 8 --json "$data/birth-L$length.json"
  done
  exit 0
fi
[ "$mode" = train ] || [ "$mode" = base ] ||
  { echo "unknown mode '$mode' (use birth, train or base)" >&2; exit 2; }
for seed in "${@:-0}"; do
  run=$runs/sink-s$seed
  stem=$data/s$seed
  if [ "$mode" = base ]; then
    run=${BASE_RUNS:-out/mitigations/kv-baseline}/s$seed
    stem=$data/s$seed-base
  elif [ -f "$run/train.json" ] && [ ! -f "$run/summary.json" ]; then
    "$posbias" train --resume "$run"  # an interrupted run goes on from its last checkpoint
  elif [ ! -f "$run/summary.json" ]; then
    rm -rf "$run"
    "$posbias" train --task kv --arch qwen2 --pos rope --layers 4 --d-model 64 --heads 4 \
      --mlp 256 --length 32 --batch 64 --steps 8000 --lr 1e-3 --warmup 200 --eval-every 250 \
      --checkpoint-every 8000 --log-checkpoints 6 --seed "$seed" --sink --out "$run"
  fi
  for file in metrics.jsonl summary.json train.json; do
    cp "$run/$file" "$stem-$file"
  done
  "$posbias" eval --run "$run" --lengths 32,64,128 --depths "$depths" --count 100 \
    --json "$stem-eval.json" --csv "$stem-eval.csv"
  "$posbias" eval --run "$run" --lengths 32 --depths 0,33,67,100 --count 200 \
    --json "$stem-eval-pairs.json"
  "$posbias" birth --run "$run" --inputs kv --target answer --checkpoints all \
    --depths 0,33,67,100 --seeds 16 --json "$stem-influence.json" --csv "$stem-influence.csv"
done
