#!/usr/bin/env bash
# Writes docs/data/hops/bench.txt, the Speed section of docs/hops.md: `train_bench letter` and
# `train_bench number` (our hop training step against the same step in Python PyTorch 1.13,
# each the best of two alternating rounds) run ROUNDS times each, alternating tasks, after a
# header naming the machine. Run it on an otherwise idle machine: the ratios are same-run
# comparisons, but the fraction of peak is not meaningful beside other work.
# Usage: scripts/hops-bench-docs-data.sh [BUILD_DIR] [ROUNDS]   (defaults: build, 3)
set -euo pipefail
cd "$(dirname "$0")/.."
bench=${1:-build}/bench/train_bench
rounds=${2:-3}
[[ -x $bench ]] || { echo "hops-bench-docs-data.sh: no $bench; build it (make bench)" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "hops-bench-docs-data.sh: ROUNDS is a whole number >= 1" >&2; exit 2; }
out=docs/data/hops/bench.txt
tmp=$out.tmp
{
  echo "# scripts/hops-bench-docs-data.sh: $bench letter and number, $rounds rounds, $(date -u +%F)"
  echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  for ((i = 1; i <= rounds; ++i)); do
    for task in letter number; do
      "$bench" "$task"
    done
  done
} >"$tmp"
mv "$tmp" "$out"
grep -E "training step|speed-up|posbias |pytorch " "$out"
