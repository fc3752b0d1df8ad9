#!/usr/bin/env bash
# Writes docs/data/mech/causal/: the causal tests of docs/mech.md ("Does the model need its
# heads?") on the Number and Letter runs of docs/data/hops/seeds-grid.json (the same runs, same
# seeds, as the head scores over three seeds), and the scores' null.
#   per run TASK-seedS:  heads --checkpoints last --ablate --spans (Number also --patch) at 17
#                        and 32 tokens → TASK-seedS.json and its figures TASK-seedS_ablation,
#                        TASK-seedS_patching; the positional-pure layers ablated at once, and
#                        the symbolic-pure ones → TASK-seedS-positional.json, -symbolic.json;
#                        heads --at-init with --qk-scale 1, 10 and 30 → TASK-seedS-init-qkK.json
#   the null model:      Number trained on shuffled answers (grid shuffled-grid.json), each
#                        seed: heads on its last checkpoint → number-shuffled-seedS.json
# Runs train through `posbias sweep run` (a done run is skipped, a killed one resumed); a run
# whose files exist is skipped, so the script can be stopped and started again.
# Usage: scripts/heads-causal-data.sh [path/to/posbias] [--only TASK-seedS|shuffled|shuffled-seedS]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/hop-seed-sweep.sh
data=docs/data/mech/causal
mkdir -p "$data"

while read -r index _state dir task seed; do
  name=$task-seed$seed
  [[ -z $only || $only == "$name" ]] || continue
  [[ -f $data/$name-init-qk30.json ]] && continue
  "$posbias" sweep run "$sweep" --index "$index"
  run=$dir/train
  patch=
  [[ $task == number ]] && patch=--patch
  "$posbias" heads --run "$run" --checkpoints last --ablate --spans $patch \
    --json "$data/$name.json" --plot "$data/$name"
  # The layers labelled positional-pure at the last checkpoint ablated at once, then the
  # symbolic-pure ones (when a label has two layers or more).
  for label in positional symbolic; do
    layers=$(/usr/bin/python3 -c "import json, sys
heads = json.load(open(sys.argv[1]))['final'][sys.argv[2]]
print(','.join(sorted({h.split('.')[0][1:] for h in heads}, key=int)))" "$data/$name.json" "$label")
    [[ $layers == *,* ]] || continue
    "$posbias" heads --run "$run" --checkpoints last --samples 10 --ablate --layers "$layers" \
      --json "$data/$name-$label.json"
  done
  for k in 1 10 30; do
    "$posbias" heads --run "$run" --at-init --qk-scale "$k" --json "$data/$name-init-qk$k.json"
  done
done <<<"$runs"

if [[ -z $only || $only == shuffled* ]]; then
  shuffled=${POSBIAS_SHUFFLED_SWEEP:-out/sweeps/hop-shuffled-seeds}
  "$posbias" sweep plan "$data/shuffled-grid.json" --out "$shuffled" >/dev/null
  "$posbias" sweep status "$shuffled" --json "$shuffled/status.json" >/dev/null
  while read -r index _state dir seed; do
    name=number-shuffled-seed$seed
    [[ -z $only || $only == shuffled || $only == "shuffled-seed$seed" ]] || continue
    [[ -f $data/$name.json ]] && continue
    "$posbias" sweep run "$shuffled" --index "$index"
    cp "$dir/train/metrics.jsonl" "$data/$name-metrics.jsonl"
    cp "$dir/train/summary.json" "$data/$name-summary.json"
    "$posbias" heads --run "$dir/train" --checkpoints last --json "$data/$name.json"
  done < <(/usr/bin/python3 scripts/sweep-runs.py "$shuffled/status.json" --seed)
fi
