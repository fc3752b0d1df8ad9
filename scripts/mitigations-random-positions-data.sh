#!/usr/bin/env bash
# Regenerates the files docs/mitigations.md cites for randomized positions (remedy 3) on kv:
# scripts/mitigations-kv-data.sh's runs with --random-positions 128 (sS-random-positions128-*;
# VARIANTS="pose:128" for PoSE, sS-pose128-*) and the kv baseline they are paired with (base:
# docs/data/mitigations/kv-baseline/sS-*), seed by seed; then the summary paired by seed and the
# figure.
# Usage: [VARIANTS="base random-positions:128"] [BASE_RUNS=out/mitigations/kv-baseline]
#   scripts/mitigations-random-positions-data.sh [path/to/posbias] [RUNS_DIR] [SEED ...]
#   (defaults: build/posbias, out/random-positions, 0 1 2)
set -euo pipefail
cd "$(dirname "$0")/.."
export POSBIAS=${1:-build/posbias} RUNS=${2:-out/random-positions}
shift 2 || shift $# || true
# shellcheck disable=SC2086  # the variants are words
scripts/mitigations-kv-data.sh random-positions ${VARIANTS:-base random-positions:128} -- "$@"
python3 scripts/mitigations-random-positions-summary.py docs/data/mitigations/random-positions \
  docs/figures/mitigations_random_positions
