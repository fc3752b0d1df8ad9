#!/usr/bin/env bash
# The passkey bench (docs/retrieval.md, "The passkey bench"): trains qwen2 and gpt2 at the
# sizing round's size over three seeds through `posbias sweep`, evaluates each trained seed by
# depth and length, and summarises each configuration over its seeds.
#
#   scripts/passkey-bench.sh [POSBIAS] [train|measure|summary|influence|all] [SETTING]
#
# SETTING names a sizing round's grid: none for round 1's (grid.json, sweep
# out/sweeps/passkey-bench, data bench/), or its suffix, such as lr3e-3-6000 for round 3's
# (grid-lr3e-3-6000.json, sweep out/sweeps/passkey-lr3e-3-6000, data bench-lr3e-3-6000/).
#
# train: `posbias sweep run` on every run of the grid, two at a time, OMP_NUM_THREADS=1 (done
# runs are skipped, started ones resumed). measure: `eval` of each trained run not measured
# yet (qwen2 at 64, 128 and 256 tokens; gpt2, whose learned table ends at 64, at 64).
# summary: `seeds --eval` per configuration with every seed measured. influence: `birth --inputs
# passkey` on every checkpoint of each measured run (qwen2 at 64 and 128 tokens, gpt2 at 64),
# then `birth --colocate` per configuration and length against the seeds' evals. Data go to
# docs/data/retrieval/passkey/bench[-SETTING]/CONFIG/.
set -euo pipefail
posbias=${1:-build/posbias}
stage=${2:-all}
setting=${3:-}
if [[ -z $setting ]]; then
  grid=docs/data/retrieval/passkey/grid.json
  sweep=out/sweeps/passkey-bench
  data=docs/data/retrieval/passkey/bench
else
  grid=docs/data/retrieval/passkey/grid-$setting.json
  sweep=out/sweeps/passkey-$setting
  data=docs/data/retrieval/passkey/bench-$setting
  [[ -f $grid ]] || { echo "passkey-bench: no grid $grid for the setting '$setting'" >&2; exit 2; }
fi
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

# The lengths influence is measured at: qwen2 at its training length and 2×, gpt2 at 64 only.
influence_lengths() { [[ $1 == gpt2 ]] && echo 64 || echo 64 128; }

influence() {
  while read -r dir arch seed; do
    out=$data/$arch
    [[ -f $out/s$seed-eval.json ]] || continue
    for length in $(influence_lengths "$arch"); do
      stem=$out/s$seed-influence-$length
      [[ -f $stem.json ]] && continue
      "$posbias" birth --run "$dir" --inputs passkey --target answer --checkpoints all \
        --depths "$depths" --seeds 16 -L "$length" --json "$stem.json.part" --csv "$stem.csv" \
        --plot "$stem"
      mv "$stem.json.part" "$stem.json"
    done
  done < <(trained_runs)
  for arch in qwen2 gpt2; do
    for length in $(influence_lengths "$arch"); do
      inf=() ev=()
      for seed in 0 1 2; do
        [[ -f $data/$arch/s$seed-influence-$length.json ]] || continue
        inf+=("$data/$arch/s$seed-influence-$length.json")
        ev+=("$data/$arch/s$seed-eval.json")
      done
      ((${#inf[@]} == 3)) || { echo "passkey-bench: $arch at $length has ${#inf[@]} of 3 seeds"; continue; }
      "$posbias" birth --colocate "$(IFS=,; echo "${inf[*]}")" --accuracy "$(IFS=,; echo "${ev[*]}")" \
        --json "$data/$arch/colocation-$length.json" --plot "$data/$arch/colocation-$length"
    done
  done
}

case $stage in
  train) train ;;
  measure) measure ;;
  summary) summary ;;
  influence) influence ;;
  all) train; measure; summary; influence ;;
  *) echo "passkey-bench: the stage is train, measure, summary, influence or all, not '$stage'" >&2; exit 2 ;;
esac
