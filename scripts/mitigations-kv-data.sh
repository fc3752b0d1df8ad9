#!/usr/bin/env bash
# Trains and measures the kv runs docs/mitigations.md pairs by seed: the retrieval bench's qwen2
# RoPE kv configuration (docs/data/retrieval/bench/grid-pos.json: 4 layers, d 64, L 32, 8000
# steps), one run at a time on one thread, seed by seed, each measured as the bench's measure
# stage measures (scripts/kv-bench.py). About 11 minutes of training per run on an idle core,
# 20 to 40 on a shared one.
#   base: the baseline every kv remedy is paired with, the command without an option, trained
#     again in this session (the bench's shipped runs do not reproduce): BASE_RUNS/sS (default
#     out/mitigations/kv-baseline/sS) into docs/data/mitigations/kv-baseline/sS-*: its
#     train.json, metrics.jsonl and summary.json, the eval by length and depth (eval.json, .csv),
#     the eval at the pairs' depths (eval-pairs.json) and the answer influence at every
#     checkpoint (influence.json, .csv).
#   NAME=OPTIONS: a remedy, the same command with OPTIONS (e.g. 'mw3=--middle-weight 3'):
#     RUNS/NAME-sS (default out/FOLDER/NAME-sS) into docs/data/mitigations/FOLDER/sS-NAME-*: its
#     train.json, metrics.jsonl, summary.json and the eval by length and depth; with --influence
#     also the eval at the pairs' depths and the influence, as for the baseline.
#   OPTION:VALUE: the same as OPTIONVALUE=--OPTION VALUE (pose:128 is pose128=--pose 128).
# A run whose summary.json is there is not trained again; one with train.json alone is resumed
# from its last checkpoint (never run two of these on one run at once).
# Usage: scripts/mitigations-kv-data.sh [--influence] FOLDER VARIANT ... [-- SEED ...]
#   (VARIANT: base, NAME=OPTIONS or OPTION:VALUE; seeds default 0 1 2; POSBIAS=path/to/posbias, default
#   build/posbias; BASE_DATA=the baseline's data folder, default docs/data/mitigations/kv-baseline)
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: scripts/mitigations-kv-data.sh [--influence] FOLDER VARIANT ... [-- SEED ...]"
influence=false
if [ "${1:-}" = --influence ]; then influence=true; shift; fi
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
folder=$1
shift
variants=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do variants+=("$1"); shift; done
if [ $# -gt 0 ]; then shift; fi  # the --
seeds=(0 1 2)
if [ $# -gt 0 ]; then seeds=("$@"); fi
[ ${#variants[@]} -gt 0 ] || { echo "$usage" >&2; exit 2; }
for variant in "${variants[@]}"; do
  [ "$variant" = base ] || [[ $variant == ?*=* ]] || [[ $variant == ?*:?* ]] ||
    { echo "unknown variant '$variant' (use base, NAME=OPTIONS or OPTION:VALUE)" >&2; exit 2; }
done
posbias=${POSBIAS:-build/posbias}
export OMP_NUM_THREADS=1
depths=0,10,20,30,40,50,60,70,80,90,100

# train RUN [OPTION ...]: the bench's command with the options, unless RUN has finished.
train() {
  local run=$1
  shift
  if [ -f "$run/summary.json" ]; then
    return
  elif [ -f "$run/train.json" ]; then
    "$posbias" train --resume "$run"  # an interrupted run goes on from its last checkpoint
  else
    rm -rf "$run"
    "$posbias" train --task kv --arch qwen2 --pos rope --layers 4 --d-model 64 --heads 4 \
      --mlp 256 --length 32 --batch 64 --steps 8000 --lr 1e-3 --warmup 200 --eval-every 250 \
      --checkpoint-every 8000 --log-checkpoints 6 "$@" --out "$run"
  fi
}

# measure RUN STEM INFLUENCE: the run's files and its evaluations into STEM-*.
measure() {
  local run=$1 stem=$2
  for file in metrics.jsonl summary.json train.json; do
    cp "$run/$file" "$stem-$file"
  done
  "$posbias" eval --run "$run" --lengths 32,64,128 --depths "$depths" --count 100 \
    --json "$stem-eval.json" --csv "$stem-eval.csv"
  if [ "$3" = true ]; then
    "$posbias" eval --run "$run" --lengths 32 --depths 0,33,67,100 --count 200 \
      --json "$stem-eval-pairs.json"
    "$posbias" birth --run "$run" --inputs kv --target answer --checkpoints all \
      --depths 0,33,67,100 --seeds 16 --json "$stem-influence.json" --csv "$stem-influence.csv"
  fi
}

for seed in "${seeds[@]}"; do
  for variant in "${variants[@]}"; do
    if [ "$variant" = base ]; then
      run=${BASE_RUNS:-out/mitigations/kv-baseline}/s$seed
      data=${BASE_DATA:-docs/data/mitigations/kv-baseline}
      mkdir -p "$(dirname "$run")" "$data"
      train "$run" --seed "$seed"
      measure "$run" "$data/s$seed" true
    else
      if [[ $variant != *=* ]]; then  # OPTION:VALUE
        variant="${variant%%:*}${variant##*:}=--${variant%%:*} ${variant##*:}"
      fi
      name=${variant%%=*}
      read -ra options <<<"${variant#*=}"
      run=${RUNS:-out/$folder}/$name-s$seed
      data=docs/data/mitigations/$folder
      mkdir -p "$(dirname "$run")" "$data"
      train "$run" "${options[@]}" --seed "$seed"
      measure "$run" "$data/s$seed-$name" "$influence"
    fi
  done
done
