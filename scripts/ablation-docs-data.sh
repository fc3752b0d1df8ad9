#!/usr/bin/env bash
# Writes the per-run files of the rotary ablations docs/hops.md cites: Number and Letter at the
# shipped training defaults except one factor, training seeds 0, 1 and 2, as the sweeps
# docs/data/hops/ablation-grid.json (rotary dims per head 0 = no positional encoding, 32, 64,
# 128 = every dim; the default is 16) and docs/data/hops/ablation-theta-grid.json (RoPE base
# 1e5, 1e6; the default is 1e4) plan. The default point itself is the seed sweep of
# scripts/hops-docs-data.sh. For each run, into docs/data/hops/ablation/NAME-seedS-*: its
# summary.json and `eval` at 17, 64, 256 and 850 tokens (with chance levels). Runs go seed by
# seed (every configuration's seed 0 first), Letter before Number. Once a configuration has
# all three seeds, `posbias seeds` summarizes it with intervals over seeds. The script is
# incremental: a run whose files exist is skipped and a run left by a killed script resumes;
# `--max-runs N` stops after N runs trained.
# Usage: scripts/ablation-docs-data.sh [path/to/posbias] [--max-runs N]
set -euo pipefail
cd "$(dirname "$0")/.."
posbias=${1:-build/posbias}
max_runs=${3:-1000000}
[[ ${2:-} == --max-runs ]] || max_runs=1000000
data=docs/data/hops/ablation
mkdir -p "$data"

# Every run of both sweeps as "sweep index name seed directory", in the order they train.
plans=""
for factor in rotary theta; do
  grid=docs/data/hops/ablation-grid.json
  [[ $factor == theta ]] && grid=docs/data/hops/ablation-theta-grid.json
  sweep=${POSBIAS_ABLATION_SWEEPS:-out/sweeps}/ablation-$factor
  "$posbias" sweep plan "$grid" --out "$sweep" >/dev/null
  plans+=$(/usr/bin/python3 -c '
import json, sys
for run in json.load(open(sys.argv[1]))["runs"]:
    v = run["values"]
    config = ("rd" + v["--rotary-dim"]) if "--rotary-dim" in v else ("theta" + v["--rope-theta"])
    letter_first = 0 if v["--task"] == "letter" else 1
    print(v["--seed"], letter_first, run["index"], sys.argv[2], run["index"],
          v["--task"] + "-" + config, v["--seed"], run["dir"])' "$sweep/manifest.json" "$sweep")
  plans+=$'\n'
done
runs=$(sort -n -k1,1 -k2,2 -k3,3 <<<"$plans" | cut -d' ' -f4-)

trained=0
while read -r sweep index name seed dir; do
  [[ -n $sweep ]] || continue
  [[ -f $data/$name-seed$seed-eval.json ]] && continue
  ((trained < max_runs)) || break
  "$posbias" sweep run "$sweep" --index "$index"
  trained=$((trained + 1))
  cp "$dir/train/summary.json" "$data/$name-seed$seed-summary.json"
  "$posbias" eval --run "$dir/train" --lengths 17,64,256,850 \
    --json "$data/$name-seed$seed-eval.json"
done <<<"$runs"

# Each configuration with all three seeds: the summary over seeds.
for summary in "$data"/*-seed0-summary.json; do
  [[ -f $summary ]] || continue
  name=$(basename "$summary" -seed0-summary.json)
  files=("$data/$name-seed0" "$data/$name-seed1" "$data/$name-seed2")
  ls "${files[@]/%/-eval.json}" >/dev/null 2>&1 || continue
  "$posbias" seeds --summary "${files[@]/%/-summary.json}" --eval "${files[@]/%/-eval.json}" \
    --json "$data/$name-seeds.json" --csv "$data/$name-seeds.csv"
done
