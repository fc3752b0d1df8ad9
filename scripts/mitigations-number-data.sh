#!/usr/bin/env bash
# Writes the files behind "On Number at 850 tokens" in docs/mitigations.md: Number at the hop
# seeds' shipped defaults trained with a position remedy (REMEDY pose: --pose 1024, the sweep
# docs/data/mitigations/pose-number-grid.json; random-positions: --random-positions 1024,
# random-positions-number-grid.json), seeds 0, 1 and 2, each run's metrics.jsonl, summary.json
# train.json and training figure, and `posbias eval --run RUN` at its defaults (lengths 17 to 850, 200 examples
# per length and hop, the seen_jumps control: the baselines' eval) into
# docs/data/mitigations/REMEDY-number/seedS-*; then the paired summary against the hop seeds'
# Number runs (scripts/mitigations-number-summary.py) and, once all three seeds are there, both
# arms side by side (`posbias seeds --compare`: compare.json, compare.csv, seeds_compare.png).
# A run not trained yet is trained (or resumed from its last checkpoint) here, one at a time on
# one thread; `bash out/sweeps/REMEDY-number/run-local.sh --jobs 2` first is faster. A seed
# whose eval exists is skipped.
# Usage: scripts/mitigations-number-data.sh [path/to/posbias] [pose|random-positions]
set -euo pipefail
cd "$(dirname "$0")/.."
posbias=${1:-build/posbias}
remedy=${2:-pose}
case $remedy in
  pose | random-positions) ;;
  *) echo "mitigations-number-data.sh: REMEDY is pose or random-positions, not '$remedy'" >&2; exit 2 ;;
esac
export OMP_NUM_THREADS=1
grid=docs/data/mitigations/$remedy-number-grid.json
data=docs/data/mitigations/$remedy-number
sweep=out/sweeps/$remedy-number
source scripts/hop-grid-runs.sh
hop_grid_runs "$posbias" "$grid" "$sweep" "$data"

/usr/bin/python3 scripts/mitigations-number-summary.py "$data" docs/data/hops/seeds
# Both arms over their seeds side by side (accuracy per length and hop, t intervals, the figure).
base=docs/data/hops/seeds/number-seed
mine=$(printf "$data/seed%s-eval.json," 0 1 2)
ls "$data"/seed{0,1,2}-eval.json >/dev/null 2>&1 || exit 0
"$posbias" seeds --compare "baseline=${base}0-eval.json,${base}1-eval.json,${base}2-eval.json" \
  "$remedy 1024=${mine%,}" --json "$data/compare.json" --csv "$data/compare.csv" \
  --plot "$data/seeds"
