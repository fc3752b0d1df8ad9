#!/usr/bin/env bash
# Writes the per-seed files behind the seed intervals of docs/hops.md and docs/mech.md: the
# Number and Letter tasks at the shipped training defaults (with a checkpoint every 100 steps
# for head formation), training seeds 0, 1 and 2, run as the sweep
# docs/data/hops/seeds-grid.json plans. For each run, into docs/data/hops/seeds/TASK-seedS-*:
# its metrics.jsonl and summary.json, `eval` at 17–850 tokens (with chance levels), `heads` on
# every checkpoint, and `discrepancy --run` (auto key heads) on the standard inputs and on the
# task's control variant (Number: seen_jumps, Letter: decoy). Once a task has all three seeds,
# `posbias seeds` summarizes them with intervals over seeds, held-out accuracy during
# training included. The script is incremental: a run whose files exist is skipped, a run
# left by a killed script resumes, and `--only number-seed0` does one run.
# Usage: scripts/hops-docs-data.sh [path/to/posbias] [--only TASK-seedS]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/hop-seed-sweep.sh
data=docs/data/hops/seeds
lengths=17,32,64,128,256,512,850
mkdir -p "$data"

while read -r index state dir task seed; do
  name=$task-seed$seed
  [[ -z $only || $only == "$name" ]] || continue
  [[ -f $data/$name-discrepancy-control.json ]] && continue
  "$posbias" sweep run "$sweep" --index "$index"
  run=$dir/train
  cp "$run/metrics.jsonl" "$data/$name-metrics.jsonl"
  cp "$run/summary.json" "$data/$name-summary.json"
  "$posbias" eval --run "$run" --lengths "$lengths" --json "$data/$name-eval.json"
  "$posbias" heads --run "$run" --json "$data/$name-heads.json"
  "$posbias" discrepancy --run "$run" --json "$data/$name-discrepancy.json"
  control=seen_jumps
  [[ $task == letter ]] && control=decoy
  "$posbias" discrepancy --run "$run" --variant "$control" \
    --json "$data/$name-discrepancy-control.json"
done <<<"$runs"

# Each task with all three seeds: the summary over seeds, with intervals.
for task in number letter; do
  files=() ; for seed in 0 1 2; do files+=("$data/$task-seed$seed"); done
  ls "${files[@]/%/-discrepancy-control.json}" >/dev/null 2>&1 || continue
  "$posbias" seeds --summary "${files[@]/%/-summary.json}" \
    --metrics "${files[@]/%/-metrics.jsonl}" --eval "${files[@]/%/-eval.json}" \
    --heads "${files[@]/%/-heads.json}" --discrepancy "${files[@]/%/-discrepancy.json}" \
    --json "$data/$task-seeds.json" --csv "$data/$task-seeds.csv" --plot "$data/$task-seeds"
  "$posbias" seeds --discrepancy "${files[@]/%/-discrepancy-control.json}" \
    --json "$data/$task-seeds-control.json" --plot "$data/$task-seeds-control"
done
