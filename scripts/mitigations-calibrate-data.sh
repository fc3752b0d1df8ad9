#!/usr/bin/env bash
# Regenerates the files docs/mitigations.md cites for attention calibration at evaluation
# (remedy 6, eval --calibrate): the kv baselines (scripts/mitigations-kv-data.sh base: the
# retrieval bench's qwen2 RoPE configuration, L 32, trained when RUNS_DIR/sS has no
# summary.json, one thread, its files and plain evaluation in docs/data/mitigations/kv-baseline/),
# each evaluated at 32, 64 and 128 tokens with --calibrate (strength 1) and with --calibrate
# --calibrate-strength 0.5; the strength-0 evaluation is checked to be the plain one (the same
# JSON but for `calibrate` and the seconds) and not kept. Then the paired summary and the figure
# over the seeds whose evaluations are all there.
# Usage: scripts/mitigations-calibrate-data.sh [path/to/posbias] [RUNS_DIR] [SEED ...]
# (RUNS_DIR default out/mitigations/kv-baseline, seeds default 0 1 2).
set -euo pipefail
cd "$(dirname "$0")/.."
data=docs/data/mitigations/calibration figures=docs/figures
baseline=docs/data/mitigations/kv-baseline
posbias=${1:-build/posbias}
runs=${2:-out/mitigations/kv-baseline}
shift 2 || shift $# || true
seeds=${*:-0 1 2}
mkdir -p "$data" "$figures"
export OMP_NUM_THREADS=1
# shellcheck disable=SC2086  # the seeds are words
POSBIAS=$posbias BASE_RUNS=$runs scripts/mitigations-kv-data.sh calibration base -- $seeds

for seed in $seeds; do
  run=$runs/s$seed
  for variant in cal1 cal0.5; do
    case $variant in
      cal1) option=(--calibrate) ;;
      cal0.5) option=(--calibrate --calibrate-strength 0.5) ;;
    esac
    "$posbias" eval --run "$run" --lengths 32,64,128 --count 100 "${option[@]}" \
      --json "$data/s$seed-$variant-eval.json" --csv "$data/s$seed-$variant-eval.csv"
  done
  zero=$(mktemp -d)
  "$posbias" eval --run "$run" --lengths 32,64,128 --count 100 --calibrate \
    --calibrate-strength 0 --json "$zero/eval.json" --csv "$zero/eval.csv"
  python3 - "$baseline/s$seed-eval.json" "$zero/eval.json" <<'PY'
import json, sys
base, zero = (json.load(open(p)) for p in sys.argv[1:])
for j in (base, zero):
    j.pop("seconds")
assert zero.pop("calibrate") == 0, "strength 0 not recorded"
assert base == zero, "strength 0 is not the plain evaluation"
PY
  cmp "$baseline/s$seed-eval.csv" "$zero/eval.csv"
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
