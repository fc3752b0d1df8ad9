#!/usr/bin/env bash
# Regenerates the files docs/mitigations.md cites for the middle-weighted loss (remedy 1) on kv:
# the retrieval bench's qwen2 RoPE configuration (docs/data/retrieval/bench/grid-pos.json)
# trained without an option (base, the baseline: the bench's shipped runs are not this build's)
# and with --middle-weight 3 (VARIANTS="base middle-weight:3 middle-weight:1" adds λ = 1), one
# run at a time on one thread, seed by seed, each evaluated as the bench's measure stage does
# (scripts/kv-bench.py: 32, 64 and 128 tokens, depths 0..100 by 10, 100 examples per cell); then
# the summary paired by seed and the figure.
# About 11 minutes of training per run on an idle core, 20 to 40 on a shared one.
# Usage: [VARIANTS="base middle-weight:3"] scripts/mitigations-middle-weight-data.sh
#   [path/to/posbias] [RUNS_DIR] [SEED ...]   (defaults: build/posbias, out/middle-weight,
#   0 1 2; a run whose summary.json is there is not trained again)
set -euo pipefail
cd "$(dirname "$0")/.."
data=docs/data/mitigations/middle-weight
posbias=${1:-build/posbias}
runs=${2:-out/middle-weight}
shift 2 || shift $# || true
seeds=${*:-0 1 2}
variants=${VARIANTS:-base middle-weight:3}
mkdir -p "$data" "$runs"
export OMP_NUM_THREADS=1

for seed in $seeds; do
  for variant in $variants; do
    option=()
    name=base
    if [ "$variant" != base ]; then
      option=(--middle-weight "${variant##*:}")
      name=mw${variant##*:}  # mw3, mw1
    fi
    run=$runs/$name-s$seed
    if [ ! -f "$run/summary.json" ]; then
      rm -rf "$run"
      "$posbias" train --task kv --layers 4 --d-model 64 --heads 4 --mlp 256 --length 32 \
        --batch 64 --steps 8000 --lr 1e-3 --warmup 200 --eval-every 250 --checkpoint-every 8000 \
        --log-checkpoints 6 --arch qwen2 --pos rope "${option[@]}" --seed "$seed" --out "$run"
    fi
    for file in metrics.jsonl summary.json train.json; do
      cp "$run/$file" "$data/s$seed-$name-$file"
    done
    "$posbias" eval --run "$run" --lengths 32,64,128 --depths 0,10,20,30,40,50,60,70,80,90,100 \
      --count 100 --json "$data/s$seed-$name-eval.json" --csv "$data/s$seed-$name-eval.csv"
  done
done
python3 scripts/mitigations-middle-weight-summary.py "$data" docs/figures/mitigations_middle_weight
