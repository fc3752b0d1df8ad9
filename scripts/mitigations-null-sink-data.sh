#!/usr/bin/env bash
# Regenerates the files docs/mitigations.md cites for the null sink at birth: GPT-2 and Qwen2
# style models at init (12 layers, d 128, L 128, 8 seeds, exact), without a null sink and with
# sink logits b = 0, 2 and 4, each seed paired with the same seed without the sink (the sink's
# logits are set, not drawn, so every other weight is the seed's), and the paired share changes
# with their verdicts. A few minutes on 2 cores.
# Usage: scripts/mitigations-null-sink-data.sh [path/to/posbias]   (default build/posbias)
set -euo pipefail
cd "$(dirname "$0")/.."
data=docs/data/mitigations figures=docs/figures
posbias=${1:-build/posbias}
mkdir -p "$data" "$figures"

shape="--layers 12 --d-model 128 --heads 4 --length 128 --seeds 8"
for family in gpt2 qwen2; do
  options="--arch $family $shape"
  [ "$family" = qwen2 ] && options="$options --kv-heads 2"
  # shellcheck disable=SC2086  # the options are words
  "$posbias" birth $options --json "$data/${family}_plain.json"
  for b in 0 2 4; do
    # shellcheck disable=SC2086
    "$posbias" birth $options --null-sink "$b" --json "$data/${family}_sink$b.json" \
      --plot "$figures/mitigations_${family}_sink$b"
  done
  "$posbias" theory shares --baseline "$data/${family}_plain.json" \
    "$data/${family}"_sink{0,2,4}.json --json "$data/${family}_shares.json"
done
