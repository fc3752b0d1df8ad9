#!/usr/bin/env bash
# Regenerates the files docs/mitigations.md cites for log-n attention scaling at evaluation
# only (remedy 2): the kv runs of the RoPE-scaling plan (qwen2, RoPE, 4 layers, d 64, L 32,
# 6000 steps; scripts/mitigations-rope-scaling-data.sh trains them), read and never written,
# each evaluated at 32, 64 and 128 tokens without the option and with --logn-scale 0.2885
# (1/ln 32) and 0.3607 (1/ln 16), one thread; then the paired summary and the figure. A seed
# whose run has not finished (no summary.json) is skipped. Seconds per evaluation.
# Usage: scripts/mitigations-logn-data.sh [path/to/posbias] [RUNS_DIR] [SEED ...]
# (RUNS_DIR default out/rope-scaling).
set -euo pipefail
cd "$(dirname "$0")/.."
data=docs/data/mitigations/logn figures=docs/figures
posbias=${1:-build/posbias}
runs=${2:-out/rope-scaling}
shift 2 || shift $# || true
seeds=${*:-0 1 2}
mkdir -p "$data" "$figures"
export OMP_NUM_THREADS=1

done_seeds=()
for seed in $seeds; do
  run=$runs/kv-s$seed
  if [ ! -f "$run/summary.json" ]; then
    echo "seed $seed: $run has not finished training; skipped" >&2
    continue
  fi
  cp "$run/summary.json" "$data/s$seed-summary.json"
  for variant in base 0.2885 0.3607; do
    name=logn$variant option=(--logn-scale "$variant")
    [ "$variant" = base ] && name=base option=()
    "$posbias" eval --run "$run" --lengths 32,64,128 --count 100 "${option[@]}" \
      --json "$data/s$seed-$name-eval.json" --csv "$data/s$seed-$name-eval.csv"
  done
  done_seeds+=("$seed")
done
[ ${#done_seeds[@]} -gt 0 ] || { echo "no finished run under $runs" >&2; exit 1; }
python3 scripts/mitigations-logn-summary.py "$data" "$figures/mitigations_logn" "${done_seeds[@]}"
