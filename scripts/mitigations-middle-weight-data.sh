#!/usr/bin/env bash
# Regenerates the files docs/mitigations.md cites for the middle-weighted loss (remedy 1) on kv:
# scripts/mitigations-kv-data.sh's runs with --middle-weight 3 (sS-mw3-*;
# VARIANTS="base middle-weight:3 middle-weight:1" adds λ = 1, sS-mw1-*) and the kv baseline they
# are paired with (base: docs/data/mitigations/kv-baseline/sS-*), seed by seed; then the summary
# paired by seed and the figure.
# Usage: [VARIANTS="base middle-weight:3"] scripts/mitigations-middle-weight-data.sh
#   [path/to/posbias] [RUNS_DIR] [SEED ...]   (defaults: build/posbias, out/middle-weight,
#   0 1 2; the baseline's runs in BASE_RUNS, default out/mitigations/kv-baseline)
set -euo pipefail
cd "$(dirname "$0")/.."
export POSBIAS=${1:-build/posbias} RUNS=${2:-out/middle-weight}
shift 2 || shift $# || true
variants=()
for variant in ${VARIANTS:-base middle-weight:3}; do
  if [ "$variant" = base ]; then variants+=(base); else
    variants+=("mw${variant##*:}=--middle-weight ${variant##*:}")  # mw3, mw1
  fi
done
scripts/mitigations-kv-data.sh middle-weight "${variants[@]}" -- "$@"
python3 scripts/mitigations-middle-weight-summary.py docs/data/mitigations/middle-weight \
  docs/figures/mitigations_middle_weight
