#!/usr/bin/env bash
# Writes the files of "Trained log-n and PoSE on kv" in docs/mitigations.md: the kv runs of the
# sweeps planned from docs/data/mitigations/kv-2026-12-08/grid-{base,logn,pose}.json (the
# baseline trained again by this build, --logn-scale 0.2885, --pose 128; seeds 0, 1, 2), each
# measured by scripts/mitigations-kv-data.sh (its files, the eval by length and depth) into
# docs/data/mitigations/kv-2026-12-08/{kv-baseline,remedies}/, plus the answer influence at the
# last checkpoint at twice the training length (sS[-NAME]-influence64.json, .csv); then the
# paired summary and the figure. Only finished runs are measured (a run still training is left
# to its sweep); a seed whose eval exists is measured again only for what is missing.
# The sweeps: posbias sweep plan GRID --out out/sweeps/kv1208-ARM, then
#   bash out/sweeps/kv1208-ARM/run-local.sh --jobs 2 (or sbatch its sweep.sbatch).
# Usage: scripts/mitigations-kv-2026-12-08-data.sh [path/to/posbias] [SWEEPS_PREFIX]
#   (defaults: build/posbias, out/sweeps/kv1208)
set -euo pipefail
cd "$(dirname "$0")/.."
export POSBIAS=${1:-build/posbias}
prefix=${2:-out/sweeps/kv1208}
data=docs/data/mitigations/kv-2026-12-08
export BASE_DATA=$data/kv-baseline BASE_RUNS=out/mitigations/kv-2026-12-08/base
export RUNS=out/mitigations/kv-2026-12-08 OMP_NUM_THREADS=1
mkdir -p "$BASE_RUNS" "$BASE_DATA" "$data/remedies"

# arm ARM -> the variant mitigations-kv-data.sh measures it as
variant() {
  case $1 in
    base) echo base ;;
    logn) echo "logn0.2885=--logn-scale 0.2885" ;;
    pose) echo "pose128=--pose 128" ;;
  esac
}

for seed in 0 1 2; do
  for arm in base logn pose; do
    sweep_run=$prefix-$arm/runs/$(printf %04d "$seed")/train
    [ -f "$sweep_run/summary.json" ] || continue  # not finished: its sweep trains it
    v=$(variant "$arm")
    if [ "$arm" = base ]; then
      link=$BASE_RUNS/s$seed stem=$BASE_DATA/s$seed
    else
      link=$RUNS/${v%%=*}-s$seed stem=$data/remedies/s$seed-${v%%=*}
    fi
    ln -sfn "$(realpath "$sweep_run")" "$link"
    [ -f "$stem-eval.json" ] || scripts/mitigations-kv-data.sh kv-2026-12-08/remedies "$v" -- "$seed" >/dev/null
    [ -f "$stem-influence64.json" ] ||
      "$POSBIAS" birth --run "$link" --inputs kv --target answer --checkpoints last --length 64 \
        --depths 0,33,67,100 --seeds 16 --json "$stem-influence64.json" \
        --csv "$stem-influence64.csv"
  done
done
python3 scripts/mitigations-kv-2026-12-08-summary.py "$data/remedies" \
  docs/figures/mitigations_kv_2026_12_08
