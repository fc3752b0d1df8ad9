#!/usr/bin/env bash
# Writes the files the long-context section of docs/birth.md cites: the cost of one
# Hutchinson profile against L on the dense and blockwise attention paths (4-layer d 256
# gpt2, each length in its own process), and influence profiles at long L against the theory
# at the same L: gpt2 (12 layers, d 768) and qwen2-0.5b at 1k, 4k and 16k tokens, and a
# 4-layer d 256 gpt2 at 16k and 64k. The profiles plan within a laptop's memory: --memory-budget 8
# (4 for the small model at 64k). Each step is skipped when its data file exists, so the
# script can be run a piece at a time (the 16k and 64k profiles take up to an hour each on 2
# cores).
# Usage: scripts/long-context-docs-data.sh [path/to/posbias] [path/to/long_context_bench]
set -euo pipefail
cd "$(dirname "$0")/.."
posbias=${1:-build/posbias}
bench=${2:-build/bench/long_context_bench}
data=docs/data/long-context
mkdir -p "$data"

[[ -f $data/cost.json ]] ||
  "$bench" --posbias "$posbias" --arch gpt2 --layers 4 --d-model 256 --heads 4 --probes 4 \
    --lengths 1024,2048,4096,8192,16384 --dense-max 8192 --out "$data/cost"

profile() {  # name, options...
  local name=$1; shift
  [[ -f $data/$name.json ]] && return 0
  "$posbias" birth "$@" --method hutchinson --probes 4 --json "$data/$name.json" \
    --csv "$data/$name.csv" --plot "$data/$name"
}
profile qwen2-0.5b-L16384 --arch qwen2-0.5b --length 16384 --seeds 1 --memory-budget 8
profile small-L65536 --arch gpt2 --layers 4 --d-model 256 --heads 4 --length 65536 --seeds 1 \
  --memory-budget 4
for length in 1024 4096; do
  profile "gpt2-L$length" --arch gpt2 --length "$length" --seeds 2 --memory-budget 8
  profile "qwen2-0.5b-L$length" --arch qwen2-0.5b --length "$length" --seeds 1 --memory-budget 8
done
profile small-L16384 --arch gpt2 --layers 4 --d-model 256 --heads 4 --length 16384 --seeds 2 \
  --memory-budget 4
profile gpt2-L16384 --arch gpt2 --length 16384 --seeds 2 --memory-budget 8

# Re-score every stored profile with the current no-fit predictions, the pre-registered
# estimator (positions, quadrature) at every length: each seed's forward pass only, from the
# file's config and seeds; the measured profile, its time and peak RSS stay the file's. A file
# already re-scored (it has "rescore") is skipped.
rescore() {  # name, memory budget in GB
  local name=$1 budget=$2
  grep -q '"rescore"' "$data/$name.json" && return 0
  "$posbias" birth --rescore "$data/$name.json" --memory-budget "$budget" \
    --json "$data/$name.json" --csv "$data/$name.csv" --plot "$data/$name"
}
for name in gpt2-L1024 qwen2-0.5b-L1024 gpt2-L4096 small-L16384 small-L65536 qwen2-0.5b-L4096 \
  qwen2-0.5b-L16384; do
  case $name in small-*) rescore "$name" 4 ;; *) rescore "$name" 8 ;; esac
done

# The long-context tables of docs/birth.md: the headline no-fit estimator, jacobian beside it,
# the held-out power law and both primacy ratios per file.
python3 scripts/nofit-baseline.py "$data/summary.json" \
  "$data"/{gpt2-L1024,gpt2-L4096,qwen2-0.5b-L1024,qwen2-0.5b-L4096}.json \
  "$data"/{qwen2-0.5b-L16384,small-L16384,small-L65536}.json
