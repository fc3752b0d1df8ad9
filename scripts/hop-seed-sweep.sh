# shellcheck shell=bash
# shellcheck disable=SC2034  # the variables are read by the script that sources this file
# Sourced by the docs-data scripts that work on the hop seed runs (hops-docs-data.sh,
# heads-causal-data.sh): reads the script's arguments "[path/to/posbias] [--only NAME]", plans
# the sweep of docs/data/hops/seeds-grid.json (POSBIAS_HOP_SWEEP, default out/sweeps/hop-seeds)
# and sets posbias, only, sweep and runs: one line "INDEX STATE DIR TASK SEED" per run.
posbias=${1:-build/posbias}
only=${3:-}
[[ ${2:-} == --only ]] || only=
sweep=${POSBIAS_HOP_SWEEP:-out/sweeps/hop-seeds}
"$posbias" sweep plan docs/data/hops/seeds-grid.json --out "$sweep" >/dev/null
"$posbias" sweep status "$sweep" --json "$sweep/status.json" >/dev/null
runs=$(/usr/bin/python3 scripts/sweep-runs.py "$sweep/status.json" --task --seed)
