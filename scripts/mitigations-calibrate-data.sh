#!/usr/bin/env bash
# Regenerates the files docs/mitigations.md cites for attention calibration at evaluation
# (remedy 6, eval --calibrate): the kv baselines (the retrieval bench's qwen2 RoPE configuration,
# L 32, trained by `train` below when RUNS_DIR/sS has no summary.json, one thread), each
# evaluated at 32, 64 and 128 tokens without the option, with --calibrate (strength 1) and with
# --calibrate --calibrate-strength 0.5; the strength-0 evaluation is checked to be the plain one
# (the same JSON but for `calibrate` and the seconds) and not kept. Then the paired summary and
# the figure over the seeds whose evaluations are all there.
# Usage: scripts/mitigations-calibrate-data.sh [path/to/posbias] [RUNS_DIR] [SEED ...]
# (RUNS_DIR default out/mitigations/kv-baseline, seeds default 0 1 2).
set -euo pipefail
cd "$(dirname "$0")/.."
data=docs/data/mitigations/calibration figures=docs/figures
posbias=${1:-build/posbias}
runs=${2:-out/mitigations/kv-baseline}
shift 2 || shift $# || true
seeds=${*:-0 1 2}
mkdir -p "$data" "$figures"
export OMP_NUM_THREADS=1

for seed in $seeds; do
  run=$runs/s$seed
  if [ ! -f "$run/summary.json" ]; then
    "$posbias" train --task kv --arch qwen2 --pos rope --layers 4 --d-model 64 --heads 4 \
      --mlp 256 --length 32 --batch 64 --steps 8000 --lr 1e-3 --warmup 200 --eval-every 250 \
      --checkpoint-every 8000 --log-checkpoints 6 --seed "$seed" --out "$run"
  fi
  for file in summary.json metrics.jsonl train.json; do cp "$run/$file" "$data/s$seed-$file"; done
  for variant in base cal1 cal0.5; do
    case $variant in
      base) option=() ;;
      cal1) option=(--calibrate) ;;
      cal0.5) option=(--calibrate --calibrate-strength 0.5) ;;
    esac
    "$posbias" eval --run "$run" --lengths 32,64,128 --count 100 "${option[@]}" \
      --json "$data/s$seed-$variant-eval.json" --csv "$data/s$seed-$variant-eval.csv"
  done
  zero=$(mktemp -d)
  "$posbias" eval --run "$run" --lengths 32,64,128 --count 100 --calibrate \
    --calibrate-strength 0 --json "$zero/eval.json" --csv "$zero/eval.csv"
  python3 - "$data/s$seed-base-eval.json" "$zero/eval.json" <<'PY'
import json, sys
base, zero = (json.load(open(p)) for p in sys.argv[1:])
for j in (base, zero):
    j.pop("seconds")
assert zero.pop("calibrate") == 0, "strength 0 not recorded"
assert base == zero, "strength 0 is not the plain evaluation"
PY
  cmp "$data/s$seed-base-eval.csv" "$zero/eval.csv"
  rm -r "$zero"
done
# Every seed evaluated so far, this call's and earlier ones'.
evaluated=()
for file in "$data"/s*-cal0.5-eval.json; do
  name=${file##*/s}
  evaluated+=("${name%%-*}")
done
python3 scripts/mitigations-calibrate-summary.py "$data" "$figures/mitigations_calibrate" \
  "${evaluated[@]}"
