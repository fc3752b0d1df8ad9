#!/usr/bin/env bash
# Writes the files docs/text.md cites: text runs of two families (gpt2 with learned
# positions, qwen2 with RoPE) at `posbias train --task text`'s defaults, three training seeds
# each, and for every run its held-out evaluation and the influence profile of every
# checkpoint on held-out text (hidden-state and next-token-loss targets); once a family has
# all three seeds, `posbias seeds` summarizes them with intervals over seeds. The script is
# incremental: a run whose data files exist is skipped, a run directory left by a killed
# script resumes, and `--only ARCH-SEEDN` does one run.
# Usage: scripts/text-docs-data.sh [path/to/posbias] [--only gpt2-seed0]
set -euo pipefail
cd "$(dirname "$0")/.."
posbias=${1:-build/posbias}
only=${3:-}
[[ ${2:-} == --only ]] || only=
runs=${POSBIAS_TEXT_RUNS:-out/text-runs}
data=docs/data/text
mkdir -p "$runs" "$data"

for arch in gpt2 qwen2; do
  for seed in 0 1 2; do
    name=$arch-seed$seed
    [[ -z $only || $only == "$name" ]] || continue
    [[ -f $data/$name-birth-loss.json ]] && continue
    run=$runs/$name
    if [[ ! -f $run/summary.json ]]; then
      if [[ -f $run/train.json ]]; then
        "$posbias" train --resume "$run"
      else
        "$posbias" train --task text --arch "$arch" --seed "$seed" --out "$run"
      fi
    fi
    cp "$run/metrics.jsonl" "$data/$name-metrics.jsonl"
    cp "$run/summary.json" "$data/$name-summary.json"
    "$posbias" eval --run "$run" --json "$data/$name-eval.json"
    "$posbias" birth --run "$run" --checkpoints all --seeds 8 --json "$data/$name-birth.json" \
      --plot "$data/$name-birth"
    "$posbias" birth --run "$run" --checkpoints all --seeds 8 --target loss \
      --json "$data/$name-birth-loss.json"
  done
done

for arch in gpt2 qwen2; do
  [[ -z $only ]] || break
  births=() losses=() evals=()
  for seed in 0 1 2; do
    births+=("$data/$arch-seed$seed-birth.json")
    losses+=("$data/$arch-seed$seed-birth-loss.json")
    evals+=("$data/$arch-seed$seed-eval.json")
  done
  ls "${births[@]}" "${losses[@]}" "${evals[@]}" >/dev/null 2>&1 || continue
  "$posbias" seeds "${births[@]}" --eval "${evals[@]}" --json "$data/$arch-seeds.json" \
    --csv "$data/$arch-seeds.csv" --plot "$data/$arch-seeds"
  "$posbias" seeds "${losses[@]}" --json "$data/$arch-seeds-loss.json" \
    --csv "$data/$arch-seeds-loss.csv" --plot "$data/$arch-seeds-loss"
done
