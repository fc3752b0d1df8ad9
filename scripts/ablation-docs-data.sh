#!/usr/bin/env bash
# Writes the per-run files of the positional-encoding ablations docs/hops.md cites: Number and
# Letter at the shipped training defaults except one factor, training seeds 0, 1 and 2, as the
# sweeps docs/data/hops/ablation-grid.json (rotary dims per head 32, 64, 128 = every dim; the
# default is 16), ablation-nope-grid.json (no positional encoding, `--pos none`) and
# ablation-theta-grid.json (RoPE base 1e5, 1e6; the default is 1e4) plan, and last
# ablation-rd128-theta-grid.json: Letter with every dim rotary at base 1e6, which tells
# whether dims that turn slowly do what unrotated ones do (docs/hops.md). The default point
# itself is the seed sweep of scripts/hops-docs-data.sh. For each run, into
# docs/data/hops/ablation/NAME-seedS-*: its summary.json and `eval` at 17, 64, 256 and 850
# tokens (with chance levels). Runs go configuration by configuration, the headline's
# contrasts first (every dim rotary, then none, then the largest base), each through its
# seeds in order, Letter before Number within a seed. As soon as a configuration has all
# three seeds, `posbias seeds` summarizes it with intervals over seeds (NAME-seeds.json,
# .csv and the NAME-seeds_eval figure), and `posbias seeds --compare` puts every configuration
# of a task beside the default, over the seeds each has so far (TASK-compare.json, .csv and the
# TASK_compare figure). The script is incremental: a run whose files exist is skipped, a
# run left by a killed script resumes, and a run another process holds is left to it.
# `--max-runs N` stops after N runs started; `--jobs N` runs N at once, each on one thread
# unless OMP_NUM_THREADS says otherwise.
# Usage: scripts/ablation-docs-data.sh [path/to/posbias] [--max-runs N] [--jobs N]
set -euo pipefail
cd "$(dirname "$0")/.."
posbias=build/posbias
[[ $# -gt 0 && $1 != --* ]] && { posbias=$1; shift; }
max_runs=1000000
jobs=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --max-runs) max_runs=${2:?--max-runs needs a number}; shift 2 ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift 2 ;;
    *) echo "ablation-docs-data.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[[ $max_runs =~ ^[0-9]+$ && $jobs =~ ^[1-9][0-9]*$ ]] ||
  { echo "ablation-docs-data.sh: --max-runs and --jobs take whole numbers (jobs >= 1)" >&2
    exit 2; }
((jobs == 1)) || export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
data=docs/data/hops/ablation
sweeps=${POSBIAS_ABLATION_SWEEPS:-out/sweeps}
mkdir -p "$data"

# Every run of the three sweeps as "seed priority letter_first sweep index name dir".
priority() {
  case $1 in
    rd128) echo 0 ;; nope) echo 1 ;; theta1000000) echo 2 ;; rd64) echo 3 ;; rd32) echo 4 ;;
    theta100000) echo 5 ;; *) echo 6 ;;
  esac
}
plans=""
for factor in rotary-dim nope theta rd128-theta; do
  grid=docs/data/hops/ablation-$factor-grid.json
  [[ $factor == rotary-dim ]] && grid=docs/data/hops/ablation-grid.json
  sweep=$sweeps/ablation-$factor
  "$posbias" sweep plan "$grid" --out "$sweep" >/dev/null
  "$posbias" sweep status "$sweep" --json "$sweep/status.json" >/dev/null
  while read -r index state dir task seed rotary theta pos; do
    config=rd$rotary
    [[ $rotary == - ]] && config=theta$theta
    [[ $rotary != - && $theta != - ]] && config=rd$rotary-theta$theta
    [[ $pos == none ]] && config=nope
    letter_first=1
    [[ $task == letter ]] && letter_first=0
    plans+="$seed $(priority "$config") $letter_first $sweep $index $task-$config $dir"$'\n'
  done < <(/usr/bin/python3 scripts/sweep-runs.py "$sweep/status.json" \
    --task --seed --rotary-dim --rope-theta --pos)
done
runs=$(sort -n -k2,2 -k1,1 -k3,3 <<<"$plans" | cut -d' ' -f1,4-)

# The summary over seeds of configuration NAME, once its three seeds have their files.
summarize() {
  local name=$1
  local files=("$data/$name-seed0" "$data/$name-seed1" "$data/$name-seed2")
  ls "${files[@]/%/-eval.json}" >/dev/null 2>&1 || return 0
  "$posbias" seeds --summary "${files[@]/%/-summary.json}" --eval "${files[@]/%/-eval.json}" \
    --json "$data/$name-seeds.json" --csv "$data/$name-seeds.csv" --plot "$data/$name-seeds"
}

# Every configuration of TASK with an eval so far beside the default's three seeds.
compare() {
  local task=$1 args=() config label files
  local seeds=docs/data/hops/seeds/$task-seed
  args+=("default (rotary 16, θ 1e4)=${seeds}0-eval.json,${seeds}1-eval.json,${seeds}2-eval.json")
  for config in rd32 rd64 rd128 nope theta100000 theta1000000 rd128-theta1000000; do
    case $config in
      rd128-theta1000000) label="rotary on every dim at θ 1e6" ;;
      rd128) label="rotary on every dim (128)" ;;
      rd*) label="rotary on ${config#rd} dims" ;;
      nope) label="no positional encoding" ;;
      theta100000) label="θ 1e5" ;;
      theta1000000) label="θ 1e6" ;;
    esac
    files=$( (ls "$data/$task-$config"-seed[0-9]-eval.json 2>/dev/null || true) | paste -sd, -)
    [[ -n $files ]] && args+=("$label=$files")
  done
  ((${#args[@]} >= 2)) || return 0
  "$posbias" seeds --compare "${args[@]}" --json "$data/$task-compare.json" \
    --csv "$data/$task-compare.csv" --plot "$data/$task"
}

# One run: train (or resume, or skip when done), then its files.
run_one() {
  local sweep=$1 index=$2 name=$3 seed=$4 dir=$5
  "$posbias" sweep run "$sweep" --index "$index"
  cp "$dir/train/summary.json" "$data/$name-seed$seed-summary.json"
  "$posbias" eval --run "$dir/train" --lengths 17,64,256,850 \
    --json "$data/$name-seed$seed-eval.json"
  summarize "$name"
  compare "${name%%-*}"
}

started=0
failed=0
while read -r seed sweep index name dir; do
  [[ -n $sweep ]] || continue
  [[ -f $data/$name-seed$seed-eval.json ]] && continue
  ((started < max_runs)) || break
  if [[ -e $dir/lock ]] && ! flock -n "$dir/lock" true; then
    echo "ablation-docs-data.sh: $name seed $seed is running in another process; left to it" >&2
    continue
  fi
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n || failed=$((failed + 1)); done
  echo "ablation-docs-data.sh: $name seed $seed (run $index of $sweep)" >&2
  run_one "$sweep" "$index" "$name" "$seed" "$dir" </dev/null &
  started=$((started + 1))
done <<<"$runs"
while (($(jobs -rp | wc -l) > 0)); do wait -n || failed=$((failed + 1)); done

# Every configuration with all three seeds: the summary over seeds (again, for the runs an
# earlier invocation finished).
for summary in "$data"/*-seed0-summary.json; do
  [[ -f $summary ]] && summarize "$(basename "$summary" -seed0-summary.json)"
done
compare letter
compare number
((failed == 0)) || { echo "ablation-docs-data.sh: $failed runs failed" >&2; exit 1; }
