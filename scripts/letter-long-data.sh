#!/usr/bin/env bash
# Writes docs/data/hops/long/: Letter far past 850 tokens over the three seed runs of
# docs/data/hops/seeds-grid.json (docs/hops.md, "Letter far past 850 tokens"): each seed's
# eval at LENGTH tokens, 64 examples per hop with the decoy control, blockwise attention
# → letter-seedS-eval-LLENGTH.json; then `posbias seeds` over the seeds that have one
# → letter-seeds-LLENGTH.{json,csv} and its figures. A seed whose file exists is skipped, so the
# script can be stopped and started again (each seed's run trains through `posbias sweep run`
# if it is not there: a done run is skipped).
# Usage: scripts/letter-long-data.sh [path/to/posbias] [--only letter-seedS] [--length N]
#        (N: 4096, the default, or 16384)
set -euo pipefail
cd "$(dirname "$0")/.."
length=4096
args=()
while (($#)); do
  case $1 in
    --length) length=$2; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
set -- "${args[@]}"
source scripts/hop-seed-sweep.sh
data=docs/data/hops/long
mkdir -p "$data"

while read -r index _state dir task seed; do
  [[ $task == letter ]] || continue
  name=$task-seed$seed
  [[ -z $only || $only == "$name" ]] || continue
  out=$data/$name-eval-L$length.json
  [[ -f $out ]] && continue
  "$posbias" sweep run "$sweep" --index "$index"
  cp "$dir/train/summary.json" "$data/$name-summary.json"
  "$posbias" eval --run "$dir/train" --lengths "$length" --count 64 --attention blockwise \
    --json "$out"
done <<<"$runs"

evals=() summaries=()
for seed in 0 1 2; do
  [[ -f $data/letter-seed$seed-eval-L$length.json ]] || continue
  evals+=("$data/letter-seed$seed-eval-L$length.json")
  summaries+=("$data/letter-seed$seed-summary.json")
done
if ((${#evals[@]} >= 2)); then
  "$posbias" seeds --summary "${summaries[@]}" --eval "${evals[@]}" \
    --json "$data/letter-seeds-L$length.json" --csv "$data/letter-seeds-L$length.csv" \
    --plot "$data/letter-seeds-L$length"
fi
