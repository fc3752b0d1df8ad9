#!/usr/bin/env bash
# The passkey bench (docs/retrieval.md, "The passkey bench"): trains qwen2 and gpt2 at the
# sizing round's size over three seeds through `posbias sweep`, evaluates each trained seed by
# depth and length, and summarises each configuration over its seeds.
#
#   scripts/passkey-bench.sh [POSBIAS] [train|measure|summary|all]
#
# train: `posbias sweep run` on every run of the grid, two at a time, OMP_NUM_THREADS=1 (done
# runs are skipped, started ones resumed). measure: `eval` of each trained run not measured
# yet (qwen2 at 64, 128 and 256 tokens; gpt2, whose learned table ends at 64, at 64).
# summary: `seeds --eval` per configuration with every seed measured. Data go to
# docs/data/retrieval/passkey/bench/CONFIG/.
set -euo pipefail
posbias=${1:-build/posbias}
stage=${2:-all}
grid=docs/data/retrieval/passkey/grid.json
sweep=out/sweeps/passkey-bench
data=docs/data/retrieval/passkey/bench
depths=0,10,20,30,40,50,60,70,80,90,100
export OMP_NUM_THREADS=1

train() {
  [[ -f $sweep/manifest.json ]] || "$posbias" sweep plan "$grid" --out "$sweep"
  # shellcheck disable=SC2016  # expanded by the inner bash, from its arguments
  seq 0 5 | xargs -P 2 -I@ bash -c \
    'exec "$0" sweep run "$1" --index "$2" >>"$1/logs/run-$2.log" 2>&1' "$posbias" "$sweep" @
}

# Each trained run as "DIR ARCH SEED".
trained_runs() {
  python3 - "$sweep" <<'EOF'
import json, pathlib, sys
for run in json.load(open(pathlib.Path(sys.argv[1]) / "manifest.json"))["runs"]:
    train = pathlib.Path(run["dir"]) / "train"
    if (train / "summary.json").exists():
        print(train, run["values"]["--arch"], run["values"]["--seed"])
EOF
}

measure() {
  while read -r dir arch seed; do
    out=$data/$arch
    [[ -f $out/s$seed-eval.json ]] && continue
    mkdir -p "$out"
    lengths=64,128,256
    [[ $arch == gpt2 ]] && lengths=64
    cp "$dir/metrics.jsonl" "$out/s$seed-metrics.jsonl"
    cp "$dir/summary.json" "$out/s$seed-summary.json"
    "$posbias" eval --run "$dir" --depths "$depths" --lengths "$lengths" --count 100 \
      --json "$out/s$seed-eval.json.part" --csv "$out/s$seed-eval.csv" --plot "$out/s$seed-eval"
    mv "$out/s$seed-eval.json.part" "$out/s$seed-eval.json"
  done < <(trained_runs)
}

summary() {
  for arch in qwen2 gpt2; do
    files=()
    for seed in 0 1 2; do
      [[ -f $data/$arch/s$seed-eval.json ]] && files+=("$data/$arch/s$seed-eval.json")
    done
    ((${#files[@]} == 3)) || { echo "passkey-bench: $arch has ${#files[@]} of 3 seeds measured"; continue; }
    "$posbias" seeds --eval "${files[@]}" --json "$data/$arch/seeds.json" \
      --csv "$data/$arch/seeds.csv" --plot "$data/$arch/seeds"
  done
}

case $stage in
  train) train ;;
  measure) measure ;;
  summary) summary ;;
  all) train; measure; summary ;;
  *) echo "passkey-bench: the stage is train, measure, summary or all, not '$stage'" >&2; exit 2 ;;
esac
