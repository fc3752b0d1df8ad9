#!/usr/bin/env bash
# Regenerates every file docs/birth.md cites: the four shipped configurations, the depth,
# operator and init-scale discrimination tests, and their comparisons. About 45 minutes on
# 2 cores. Usage: scripts/birth-docs-data.sh [path/to/posbias]   (default build/apps/posbias/posbias)
set -euo pipefail
cd "$(dirname "$0")/.."
posbias=${1:-build/apps/posbias/posbias}
data=docs/data/birth
figures=docs/figures
mkdir -p "$data/depth" "$data/operators" "$data/attn_scale" "$figures"

gpt2="--arch gpt2 --layers 12 --d-model 256 --heads 4"
qwen2="--arch qwen2 --layers 24 --d-model 256 --heads 4 --kv-heads 2"
data_only() {  # name, options...: JSON and CSV
  local name=$1; shift
  "$posbias" birth "$@" --json "$data/$name.json" --csv "$data/$name.csv"
}
run() {  # the same and the figure docs/birth.md shows
  data_only "$@" --plot "$figures/birth_$(basename "$1")"
}

# The four shipped configurations: d 256, L 256, 8 seeds, exact.
run gpt2 $gpt2 --length 256 --seeds 8
run gpt2_unscaled $gpt2 --length 256 --seeds 8 --init unscaled
run qwen2_rope $qwen2 --length 256 --seeds 8
run qwen2_none $qwen2 --length 256 --seeds 8 --pos none
# Seed noise against seed count (Hutchinson, 16 probes).
for seeds in 8 32; do
  data_only "gpt2_hutchinson_seeds$seeds" $gpt2 --length 256 --seeds "$seeds" --method hutchinson
done

# Depth: H = 1..32 at d 128, L 128, 8 seeds, both families.
small_gpt2="--arch gpt2 --d-model 128 --heads 4 --length 128 --seeds 8"
small_qwen2="--arch qwen2 --d-model 128 --heads 4 --kv-heads 2 --length 128 --seeds 8"
for h in 1 2 4 8 16 32; do
  data_only "depth/gpt2_h$h" $small_gpt2 --layers "$h"
  data_only "depth/qwen2_h$h" $small_qwen2 --layers "$h"
done
for family in gpt2 qwen2; do
  "$posbias" theory compare "$data"/depth/"$family"_h{1,2,4,8,16,32}.json \
    --json "$data/depth/compare_$family.json" --csv "$data/depth/compare_$family.csv" \
    --plot "$figures/birth_depth_$family"
done
# The same depths with GPT-2's residual projections unscaled (--init unscaled): the control
# for whether GPT-2's 1/sqrt(2H) scaling is what makes its deep profiles alike.
for h in 1 2 4 8 16 32; do
  data_only "depth/gpt2_unscaled_h$h" $small_gpt2 --layers "$h" --init unscaled
done
"$posbias" theory compare "$data"/depth/gpt2_unscaled_h{1,2,4,8,16,32}.json \
  --json "$data/depth/compare_gpt2_unscaled.json" --csv "$data/depth/compare_gpt2_unscaled.csv" \
  --plot "$figures/birth_depth_gpt2_unscaled"
# Negative control across families: all twelve runs against one another.
"$posbias" theory compare "$data"/depth/{gpt2,qwen2}_h{1,2,4,8,16,32}.json \
  --json "$data/depth/compare_all.json" --csv "$data/depth/compare_all.csv" \
  --plot "$figures/birth_depth_all"

# Operators: ALiBi and a 16-key window against the plain causal operator (12 layers).
run operators/gpt2_alibi $small_gpt2 --layers 12 --pos alibi
run operators/gpt2_window16 $small_gpt2 --layers 12 --window 16
run operators/qwen2_window16 $small_qwen2 --layers 12 --window 16
run operators/qwen2_alibi $small_qwen2 --layers 12 --pos alibi

# α through init: the attention output projection's init std × s.
for family in gpt2 qwen2; do
  small=small_$family
  for s in 0.25 1 4; do
    data_only "attn_scale/${family}_s$s" ${!small} --layers 12 --attn-init-scale "$s"
  done
  "$posbias" theory compare "$data"/attn_scale/"$family"_s{0.25,1,4}.json \
    --json "$data/attn_scale/compare_$family.json" --csv "$data/attn_scale/compare_$family.csv" \
    --plot "$figures/birth_attn_scale_$family"
done

# Which estimator: chosen on the two GPT-2 configurations, scored on every other run.
python3 scripts/birth-estimators.py

# The U by its parts of the four shipped configurations, from their stored per-seed profiles.
"$posbias" theory shares "$data"/{gpt2,gpt2_unscaled,qwen2_rope,qwen2_none}.json \
  --json "$data/shares.json"
# The same for the long profiles that scripts/long-context-docs-data.sh writes.
"$posbias" theory shares docs/data/long-context/{gpt2-L1024,gpt2-L4096,qwen2-0.5b-L1024}.json \
  docs/data/long-context/{qwen2-0.5b-L4096,qwen2-0.5b-L16384,small-L16384,small-L65536}.json \
  --json "$data/shares-long-context.json"
