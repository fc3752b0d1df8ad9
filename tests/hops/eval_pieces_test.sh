#!/usr/bin/env bash
# `posbias eval --hops` in pieces, joined by scripts/join-eval-pieces.py, gives the whole
# eval's file: every accuracy, chance and decoy rate of a Letter run with the decoy control
# (exact for accuracies and decoy rates, counts over a power of two; chance within 1e-12, its
# sums taken in another order), at two lengths. Then the bad inputs: a hop the run was not
# trained on (exit 2), and pieces that overlap or come from another evaluation (exit 2).
# Usage: eval_pieces_test.sh path/to/posbias
set -euo pipefail
posbias=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMP_NUM_THREADS=1

"$posbias" train --task letter --steps 20 --eval-every 10 --checkpoint-every 10 \
  --eval-per-hop 8 --out "$tmp/run" 2>/dev/null
eval_args=(--run "$tmp/run" --lengths "40,96" --count 16 --seed 3 --json)
"$posbias" eval "${eval_args[@]}" "$tmp/whole.json" 2>/dev/null
for hops in 1 2,4 3; do
  "$posbias" eval "${eval_args[@]}" "$tmp/piece-$hops.json" --hops "$hops" 2>/dev/null
done
python3 "$root/scripts/join-eval-pieces.py" --out "$tmp/joined.json" \
  "$tmp/piece-1.json" "$tmp/piece-2,4.json" "$tmp/piece-3.json"

python3 - "$tmp/whole.json" "$tmp/joined.json" <<'EOF'
import json, sys
whole, joined = (json.load(open(p)) for p in sys.argv[1:3])
checked, worst = 0, 0.0

def compare(a, b, where, exact):
    global checked, worst
    if isinstance(a, dict):
        assert sorted(a) == sorted(b), f"{where}: keys {sorted(a)} against {sorted(b)}"
        for k in a:
            compare(a[k], b[k], f"{where}.{k}", exact or k in ("accuracy", "decoy_rate"))
        return
    checked += 1
    worst = max(worst, abs(a - b))
    assert (a == b) if exact else abs(a - b) <= 1e-12, f"{where}: whole {a}, pieces {b}"

for key in ("accuracy", "chance", "controls"):
    compare(whole[key], joined[key], key, False)
for key in ("task", "run", "checkpoint", "step", "count_per_hop", "seed", "lengths", "attention"):
    assert whole[key] == joined[key], key
# 2 lengths x 5 values (4 hops and all) x accuracy and chance, for the eval and its control,
# and the control's decoy rate at 2 lengths.
assert checked == 42, checked
print(f"eval_pieces_test: {checked} values, worst |whole - pieces| {worst:.3g}")
EOF

expect_usage_error() {
  local what=$1
  shift
  set +e
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  set -e
  if [[ $rc != 2 || $(wc -l <"$tmp/err") != 1 ]]; then
    echo "eval_pieces_test: $what: exit $rc, stderr:" >&2
    cat "$tmp/err" >&2
    exit 1
  fi
}
expect_usage_error "an untrained hop" "$posbias" eval "${eval_args[@]}" "$tmp/x.json" --hops 5
expect_usage_error "overlapping pieces" python3 "$root/scripts/join-eval-pieces.py" \
  --out "$tmp/x.json" "$tmp/piece-1.json" "$tmp/whole.json"
"$posbias" eval --run "$tmp/run" --lengths 40 --count 16 --seed 4 --hops 2 \
  --json "$tmp/seed4.json" 2>/dev/null
expect_usage_error "pieces of two seeds" python3 "$root/scripts/join-eval-pieces.py" \
  --out "$tmp/x.json" "$tmp/piece-1.json" "$tmp/seed4.json"
echo "eval_pieces_test: passed"
