#!/usr/bin/env bash
# Writes the files behind "Number's coverage" in docs/hops.md: Number trained on lengths drawn
# from 17..MAX (seeds 0, 1 and 2, the sweep docs/data/hops/coverage64-grid.json plans for MAX
# 64, coverage-grid.json for 256), each run's metrics.jsonl, summary.json and training figure,
# and `eval` at 17, MAX, 2·MAX and 4·MAX tokens (200 examples per length and hop, with the
# seen_jumps control), into docs/data/hops/coverage64/seedS-* (coverage/ for 256). Once all
# three seeds are there, `posbias seeds` summarizes them with intervals over seeds. A run not
# trained yet is trained (or resumed) here: two at a time with `bash SWEEP/run-local.sh --jobs
# 2` first is faster. Incremental: a seed whose eval exists is skipped.
# Usage: scripts/hops-coverage-docs-data.sh [path/to/posbias] [64|256]
set -euo pipefail
cd "$(dirname "$0")/.."
posbias=${1:-build/posbias}
max=${2:-64}
case $max in
  64) grid=docs/data/hops/coverage64-grid.json data=docs/data/hops/coverage64 ;;
  256) grid=docs/data/hops/coverage-grid.json data=docs/data/hops/coverage ;;
  *) echo "hops-coverage-docs-data.sh: MAX is 64 or 256, not '$max'" >&2; exit 2 ;;
esac
sweep=out/sweeps/$(basename "$data" | sed 's/^coverage/hop-coverage/')
lengths=17,$max,$((2 * max)),$((4 * max))
source scripts/hop-grid-runs.sh
hop_grid_runs "$posbias" "$grid" "$sweep" "$data" --lengths "$lengths" --count 200

files=("$data/seed0" "$data/seed1" "$data/seed2")
ls "${files[@]/%/-eval.json}" >/dev/null 2>&1 || exit 0
"$posbias" seeds --summary "${files[@]/%/-summary.json}" --metrics "${files[@]/%/-metrics.jsonl}" \
  --eval "${files[@]/%/-eval.json}" --json "$data/seeds.json" --csv "$data/seeds.csv" \
  --plot "$data/seeds"
