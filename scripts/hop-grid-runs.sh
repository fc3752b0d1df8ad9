# shellcheck shell=bash
# Sourced by the docs-data scripts that train a hop grid seed by seed and keep each seed's files
# (hops-coverage-docs-data.sh, mitigations-number-data.sh).
# hop_grid_runs POSBIAS GRID SWEEP DATA [EVAL_OPTION ...]: plans SWEEP from GRID; for every run
# of it whose DATA/seedS-eval.json is missing, trains it (or resumes it from its last
# checkpoint) with `posbias sweep run`, copies its metrics.jsonl, summary.json, train.json and
# training figure to DATA/seedS-*, and evaluates it: `posbias eval --run RUN EVAL_OPTION ...
# --json DATA/seedS-eval.json --plot DATA/seedS-eval`.
hop_grid_runs() {
  local posbias=$1 grid=$2 sweep=$3 data=$4
  shift 4
  local runs index dir seed name run ext
  mkdir -p "$data"
  "$posbias" sweep plan "$grid" --out "$sweep" >/dev/null
  "$posbias" sweep status "$sweep" --json "$sweep/status.json" >/dev/null
  runs=$(/usr/bin/python3 scripts/sweep-runs.py "$sweep/status.json" --seed)
  while read -r index _ dir seed; do
    name=$data/seed$seed
    [[ -f $name-eval.json ]] && continue
    "$posbias" sweep run "$sweep" --index "$index"
    run=$dir/train
    cp "$run/metrics.jsonl" "$name-metrics.jsonl"
    cp "$run/summary.json" "$name-summary.json"
    cp "$run/train.json" "$name-train.json"
    for ext in svg png gp; do cp "$run/training_accuracy.$ext" "$name-training_accuracy.$ext"; done
    "$posbias" eval --run "$run" "$@" --json "$name-eval.json" --plot "$name-eval"
  done <<<"$runs"
}
