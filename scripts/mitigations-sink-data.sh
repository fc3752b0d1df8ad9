#!/usr/bin/env bash
# Regenerates the files docs/mitigations.md cites for the BOS sink token (remedy 4a).
#   birth: the bench's model shape at init (qwen2, 4 layers, d 64, 4 heads, MLP 256, exact,
#     8 seeds) reading W = 34 and 128 tokens (plain) and 35 and 129 (the sink at position 0 and
#     the same W tokens after it); seconds each.
#   train SEED ...: scripts/mitigations-kv-data.sh's run with --sink (RUNS/sink-sS, default
#     out/sink) into sS-sink-*, measured as scripts/kv-bench.py measures the bench's runs (eval
#     by depth and length, eval at the pairs' depths, influence on the same inputs at every
#     checkpoint).
#   base SEED ...: the same measurements of the kv baseline the remedies share, the same command
#     without --sink trained again in this session (BASE_RUNS, default
#     out/mitigations/kv-baseline/sS; the shipped bench runs do not reproduce), into
#     docs/data/mitigations/kv-baseline/sS-*.
# Then scripts/mitigations-sink-summary.py pairs them by seed.
# Usage: scripts/mitigations-sink-data.sh birth|train|base [SEED ...]   (POSBIAS=path/to/posbias,
#   default build/posbias; seeds default 0)
set -euo pipefail
cd "$(dirname "$0")/.."
data=docs/data/mitigations/sink
mode=${1:?usage: scripts/mitigations-sink-data.sh birth|train|base [SEED ...]}
shift
case $mode in
  birth)
    mkdir -p "$data"
    for length in 34 35 128 129; do
      OMP_NUM_THREADS=1 "${POSBIAS:-build/posbias}" birth --arch qwen2 --layers 4 --d-model 64 \
        --heads 4 --kv-heads 4 --mlp 256 --length "$length" --seeds 8 \
        --json "$data/birth-L$length.json"
    done ;;
  train) scripts/mitigations-kv-data.sh --influence sink "sink=--sink" -- "${@:-0}" ;;
  base) scripts/mitigations-kv-data.sh sink base -- "${@:-0}" ;;
  *) echo "unknown mode '$mode' (use birth, train or base)" >&2; exit 2 ;;
esac
