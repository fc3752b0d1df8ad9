#!/usr/bin/env bash
# Writes the files the head-search section of docs/mech.md cites: the best worst-case gap that
# `posbias discrepancy --search optimized` finds at each n, for the index function with free
# frequencies (head dims 2, 4, 8, 16; dim 8 with three search seeds) and with the hop models'
# fixed schedule (16 rotary dims, base 1e4), and for retrieval with that schedule at bases 1e4,
# 100 and 10 and with free frequencies. Each file is skipped when it exists.
# Usage: scripts/mech-search-docs-data.sh [path/to/posbias]
set -euo pipefail
cd "$(dirname "$0")/.."
posbias=${1:-build/posbias}
data=docs/data/mech
figures=docs/figures
mkdir -p "$data" "$figures"

search() {  # name, options...
  local name=$1; shift
  [[ -f $data/search_$name.json ]] && return 0
  "$posbias" discrepancy --search optimized "$@" --json "$data/search_$name.json" \
    --plot "$figures/mech_search_$name"
}
for dim in 2 4 8 16; do search "index_free_dim$dim" --head-dim "$dim"; done
for seed in 1 2; do search "index_free_dim8_seed$seed" --head-dim 8 --seed "$seed"; done
search index_rope_dim16 --head-dim 16 --frequencies rope --rope-theta 10000
lengths=16,64,256,1024,4096,16384
for base in 10000 100 10; do
  search "retrieval_rope_dim16_base$base" --function retrieval --head-dim 16 --frequencies rope \
    --rope-theta "$base" --lengths "$lengths"
done
search retrieval_free_dim16 --function retrieval --head-dim 16 --lengths "$lengths"
