#!/usr/bin/env bash
# Writes docs/data/theory/, the numbers of docs/theory.md:
#  - continuum-L1e5-H{H}-a{alpha}.json: `posbias theory -L 1e5 --summary` for the cases the
#    continuum section quotes; `continuum.bulk_max_relative_error` is the largest relative
#    error of the discrete row against the continuum density for 1e-3 < x < 0.9;
#  - bench.txt: `theory_bench` (the Speed section), ROUNDS runs after a header naming the
#    machine. Its times are only meaningful on an otherwise idle machine.
# Usage: scripts/theory-docs-data.sh [BUILD_DIR] [ROUNDS]   (defaults: build, 2)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
rounds=${2:-2}
[[ -x $build/posbias ]] || { echo "theory-docs-data.sh: no $build/posbias; build it" >&2; exit 2; }
[[ $rounds =~ ^[0-9]+$ ]] || { echo "theory-docs-data.sh: ROUNDS is a whole number" >&2; exit 2; }
out=docs/data/theory
mkdir -p "$out"
for case in "4 0.5" "8 0.5" "24 0.5" "12 0.9" "6 1"; do
  read -r layers alpha <<<"$case"
  "$build/posbias" theory -L 1e5 -H "$layers" -a "$alpha" -o /dev/null \
    --summary "$out/continuum-L1e5-H$layers-a$alpha.json"
done
((rounds > 0)) || exit 0
bench=$build/bench/theory_bench
[[ -x $bench ]] || { echo "theory-docs-data.sh: no $bench; build it (make bench)" >&2; exit 2; }
tmp=$out/bench.txt.tmp
{
  echo "# scripts/theory-docs-data.sh: $bench, $rounds rounds, $(date -u +%F)"
  echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
  for ((i = 1; i <= rounds; ++i)); do
    echo "## round $i"
    "$bench"
  done
} >"$tmp"
mv "$tmp" "$out/bench.txt"
