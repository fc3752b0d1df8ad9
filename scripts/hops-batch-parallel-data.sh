#!/usr/bin/env bash
# Writes docs/data/hops/bench-batch-parallel-2026-12-08.txt (docs/hops.md, "Batch-parallel
# step"): an old and a new build against each other on the shared machine, (1) train_bench
# letter and number at 2 threads, old and new alternating (old, new, new, old per task), the load
# average beside each; (2) posbias train on Number at the quick hops preset, seeds 0-2, at 2
# threads, one training at a time, old then new per seed, with each run's accuracy at step 400
# and 800, its first eval with accuracy >= 0.9 and its losses.
# Usage: scripts/hops-batch-parallel-data.sh OLD_DIR NEW_DIR [bench|seeds|all]
#   OLD_DIR, NEW_DIR: folders holding posbias and train_bench of each build.
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:?OLD_DIR}
new=${2:?NEW_DIR}
what=${3:-all}
out=docs/data/hops/bench-batch-parallel-2026-12-08.txt
load() { echo "$(date -u +%T) loadavg $(cut -d' ' -f1-5 /proc/loadavg)"; }
bench_one() {  # NAME DIR TASK
  echo "=== $1 $3 start $(load)"
  OMP_NUM_THREADS=2 "$2/train_bench" "$3"
  echo "=== $1 $3 end $(load)"
}
seed_one() {  # NAME DIR SEED
  local dir
  dir=$(mktemp -d /tmp/hops-batch-parallel.XXXXXX)
  echo "=== $1 seed $3 start $(load)" >&2
  OMP_NUM_THREADS=2 "$2/posbias" train --task number --layers 4 --hops 1,2 --steps 800 \
    --warmup 100 --eval-every 50 --checkpoint-every 200 --eval-per-hop 128 --seed "$3" \
    -o "$dir/run" >/dev/null 2>&1
  echo "=== $1 seed $3 end $(load)" >&2
  python3 - "$1" "$3" "$dir/run/metrics.jsonl" <<'PY'
import json, sys
name, seed, path = sys.argv[1:]
rows = [json.loads(line) for line in open(path)]
by = {r["step"]: r for r in rows}
def acc(r): return r["acc"]["all"]
cross = next((r["step"] for r in rows if acc(r) >= 0.9), None)
last, mid = by[800], by[400]
hops = ", ".join(f"{k} {v:.4f}" for k, v in sorted(last["acc"].items()) if k != "all")
print(f"{name:4} seed {seed}: step 800 acc all {acc(last):.4f} ({hops}) loss {last['loss']:.6f}"
      f" | step 400: acc {acc(mid):.4f} loss {mid['loss']:.6f}"
      f" | first eval with acc>=0.9: step {cross} | {last['train_seconds']:.1f} s")
PY
  rm -rf "$dir"
}
{
  if [[ $what == bench || $what == all ]]; then
    echo "## train_bench at 2 threads, old and new alternating ($(date -u +%F))"
    echo "# old = $old/train_bench, new = $new/train_bench"
    for task in letter number; do
      bench_one old "$old" "$task"
      bench_one new "$new" "$task"
      bench_one new "$new" "$task"
      bench_one old "$old" "$task"
    done
  fi
  if [[ $what == seeds || $what == all ]]; then
    echo "## Seed-level comparison: posbias train, Number, quick hops preset, 2 threads"
    echo "# OMP_NUM_THREADS=2 BIN train --task number --layers 4 --hops 1,2 --steps 800 --warmup 100 \\"
    echo "#   --eval-every 50 --checkpoint-every 200 --eval-per-hop 128 --seed S -o DIR"
    echo "# BIN = $old/posbias (old) and $new/posbias (new), one training at a time"
    for seed in 0 1 2; do
      seed_one old "$old" "$seed"
      seed_one new "$new" "$seed"
    done
  fi
} >>"$out"
