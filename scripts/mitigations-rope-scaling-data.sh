#!/usr/bin/env bash
# Regenerates the files docs/mitigations.md cites for RoPE scaling at inference (remedy 5):
# kv runs, qwen2 with RoPE, 4 layers, d 64, L 32, 6000 steps (the retrieval sizing probe that
# learned kv), one per seed on one thread, each evaluated at 32, 64 and 128 tokens without a
# scaling and with pi:2, pi:4, ntk:2 and ntk:4; then the paired summary and the figure.
# About 10 to 20 minutes of training per seed on one core, seconds per evaluation.
# Usage: scripts/mitigations-rope-scaling-data.sh [path/to/posbias] [RUNS_DIR] [SEED ...]
# (RUNS_DIR default out/rope-scaling; a seed whose run is there is not trained again).
set -euo pipefail
cd "$(dirname "$0")/.."
data=docs/data/mitigations/rope-scaling figures=docs/figures
posbias=${1:-build/posbias}
runs=${2:-out/rope-scaling}
shift 2 || shift $# || true
seeds=${*:-0 1 2}
mkdir -p "$data" "$figures" "$runs"
export OMP_NUM_THREADS=1

for seed in $seeds; do
  run=$runs/kv-s$seed
  if [ ! -f "$run/model.safetensors" ]; then
    "$posbias" train --task kv -L 32 --layers 4 --d-model 64 --heads 4 --mlp 256 --steps 6000 \
      --lr 1e-3 --warmup 200 --eval-every 250 --log-checkpoints 0 --seed "$seed" --out "$run"
  fi
  cp "$run/metrics.jsonl" "$data/s$seed-metrics.jsonl"
  cp "$run/summary.json" "$data/s$seed-summary.json"
  for variant in base pi:2 pi:4 ntk:2 ntk:4; do
    name=${variant/:/}
    scaling=()
    [ "$variant" = base ] || scaling=(--rope-scaling "$variant")
    "$posbias" eval --run "$run" --lengths 32,64,128 --count 100 "${scaling[@]}" \
      --json "$data/s$seed-$name-eval.json" --csv "$data/s$seed-$name-eval.csv"
  done
done
# shellcheck disable=SC2086  # the seeds are words
python3 scripts/mitigations-rope-scaling-summary.py "$data" "$figures/mitigations_rope_scaling" \
  $seeds
