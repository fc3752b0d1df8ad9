#!/usr/bin/env bash
# Regenerates the files docs/mitigations.md cites for inverse design at birth (remedy 7): per
# preset (GPT-2, Qwen2), the theory's search over 3360 operators at L 128, H 12 (quadrature
# paths, at the baseline's measured α̂), then birth for the baseline and the best two operators
# birth can build (the search's `confirm`), 8 seeds on one thread, and the paired shares.
# A few minutes on one core.
# Usage: scripts/mitigations-design-data.sh [path/to/posbias] [gpt2|qwen2 ...]
set -euo pipefail
cd "$(dirname "$0")/.."
data=docs/data/mitigations/design figures=docs/figures
posbias=${1:-build/posbias}
shift || true
presets=${*:-gpt2 qwen2}
mkdir -p "$data" "$figures"
export OMP_NUM_THREADS=1

grid="-L 128 -H 12 --paths quadrature --windows 0,12,16,24,32,48,64
  --alibis none,0.01,0.03,0.1,heads:4 --sinks 0,0.05,0.1,0.2 --null-sinks none,0,2,4
  --alphas 0.1,0.22,0.43,0.75 --ramps 0.1:0.75,0.75:0.1"
shape="--layers 12 --d-model 128 --heads 4 --length 128 --seeds 8"
for family in $presets; do
  case $family in
    gpt2) alpha=0.22 options="--arch gpt2 $shape" ;;
    qwen2) alpha=0.43 options="--arch qwen2 $shape --kv-heads 2" ;;
    *) echo "unknown preset $family" >&2; exit 2 ;;
  esac
  # shellcheck disable=SC2086  # the options are words
  "$posbias" theory design $grid --baseline-alpha "$alpha" --json "$data/${family}_design.json" \
    --csv "$data/${family}_design.csv" --plot "$figures/mitigations_design_${family}"
  # shellcheck disable=SC2086
  "$posbias" birth $options --json "$data/${family}_baseline.json" \
    --plot "$figures/mitigations_design_${family}_baseline"
  runs=()
  for k in 0 1; do
    design=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); \
print(d['operators'][d['confirm'][$k]-1]['birth_options'])" "$data/${family}_design.json")
    # shellcheck disable=SC2086
    "$posbias" birth $options $design --json "$data/${family}_design$((k + 1)).json" \
      --plot "$figures/mitigations_design_${family}_design$((k + 1))"
    runs+=("$data/${family}_design$((k + 1)).json")
  done
  "$posbias" theory shares --baseline "$data/${family}_baseline.json" "${runs[@]}" \
    --json "$data/${family}_design_shares.json"
done
