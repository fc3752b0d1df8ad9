#!/usr/bin/env bash
# Writes docs/data/hops/long/: Letter far past 850 tokens over the three seed runs of
# docs/data/hops/seeds-grid.json (docs/hops.md, "Letter far past 850 tokens"): each seed's
# eval at LENGTH tokens, 64 examples per hop with the decoy control, blockwise attention
# → letter-seedS-eval-LLENGTH.json, and its run's training summary
# → letter-seedS-summary-LLENGTH.json (letter-seedS-summary.json for the 4096-token files,
# written before); then `posbias seeds` over the seeds that have one
# → letter-seeds-LLENGTH.{json,csv} and its figures.
# Each seed's eval runs in pieces, one hop at a time (`posbias eval --hops H`, the examples the
# whole eval draws for that hop) → letter-seedS-eval-LLENGTH-hopH.json, joined into the seed's
# file by scripts/join-eval-pieces.py once all four are there. A seed whose file exists and a
# piece whose file exists are skipped, so the script can be stopped and started again and
# loses at most the piece under way (each seed's run trains through `posbias sweep run` if it
# is not there: a done run is skipped, a killed one resumes from its last checkpoint). A second
# copy started once the run has trained evaluates the hops the first has not taken (each piece
# is locked while it is written), so two cores work on one seed; the last to finish joins.
# A seed's first training for a length writes its weights' SHA-256 and metrics beside its pieces
# (letter-seedS-model-LLENGTH.sha256, -metrics-LLENGTH.jsonl); a run trained again must match
# the SHA-256 before its pieces join the others.
# With --commit, each piece, joined file and summary is committed as it is written (only
# those files: `git commit -- FILES`), so a session that ends keeps what it finished.
# Usage: scripts/letter-long-data.sh [path/to/posbias] [--only letter-seedS] [--length N]
#        [--commit]   (N: 4096, the default, or 16384)
set -euo pipefail
cd "$(dirname "$0")/.."
length=4096
commit=false
args=()
while (($#)); do
  case $1 in
    --length) length=$2; shift 2 ;;
    --commit) commit=true; shift ;;
    *) args+=("$1"); shift ;;
  esac
done
set -- "${args[@]}"
source scripts/hop-seed-sweep.sh
data=docs/data/hops/long
mkdir -p "$data"
hops=(1 2 3 4)

# commit_data MESSAGE FILE...: commits those files only (other staged changes stay staged);
# retried while another git command holds the index.
commit_data() {
  $commit || return 0
  local message=$1
  shift
  for _try in 1 2 3 4 5 6; do
    if git add -- "$@" && git commit -q -m "$message" -- "$@"; then return 0; fi
    sleep 10
  done
  echo "letter-long-data: could not commit $*" >&2
  return 1
}

# summary_line FILE: "accuracy A, decoy control C, decoy rate R, S s" of an eval file (all its
# hops).
summary_line() {
  /usr/bin/python3 - "$1" "$length" <<'EOF'
import json, sys
e, n = json.load(open(sys.argv[1])), sys.argv[2]
d = e["controls"]["decoy"]
print(f"accuracy {e['accuracy'][n]['all']:.4g}, decoy control {d['accuracy'][n]['all']:.4g}, "
      f"decoy rate {d['decoy_rate'][n]:.4g}, {e['seconds']:.0f} s")
EOF
}

while read -r index _state dir task seed; do
  [[ $task == letter ]] || continue
  name=$task-seed$seed
  [[ -z $only || $only == "$name" ]] || continue
  out=$data/$name-eval-L$length.json
  [[ -f $out ]] && continue
  pieces=() missing=()
  for hop in "${hops[@]}"; do
    pieces+=("$data/$name-eval-L$length-hop$hop.json")
    [[ -f ${pieces[-1]} ]] || missing+=("$hop")
  done
  # The run's training summary beside its evals at this length: a run trained again (a new
  # session, another build) need not be the run another length evaluated.
  summary=$data/$name-summary-L$length.json
  if ((${#missing[@]})); then
    "$posbias" sweep run "$sweep" --index "$index"
    cp "$dir/train/summary.json" "$summary"
    # Pieces are joined only if they score one model: the first training writes its weights'
    # SHA-256 and metrics beside them, and a run trained again (a new session) must match it.
    sha=$data/$name-model-L$length.sha256
    if [[ -f $sha ]]; then
      if ! (cd "$dir/train" && sha256sum --check --status "$OLDPWD/$sha"); then
        echo "letter-long-data: $name trained again is not the model its pieces scored" \
          "($sha differs); move its pieces away to evaluate the new one" >&2
        exit 1
      fi
    else
      (cd "$dir/train" && sha256sum model.safetensors) >"$sha"
      cp "$dir/train/metrics.jsonl" "$data/$name-metrics-L$length.jsonl"
      commit_data "Letter $name trained for $length tokens: its weights' SHA-256 and metrics" \
        "$sha" "$data/$name-metrics-L$length.jsonl"
    fi
  fi
  for hop in "${missing[@]}"; do
    piece=$data/$name-eval-L$length-hop$hop.json
    # A piece another copy of this script is writing is skipped: it holds the piece's lock.
    exec {lock}>"$sweep/$name-L$length-hop$hop.lock"
    if ! flock -n "$lock" || [[ -f $piece ]]; then
      exec {lock}>&-
      continue
    fi
    "$posbias" eval --run "$dir/train" --lengths "$length" --count 64 --hops "$hop" \
      --attention blockwise --json "$piece"
    exec {lock}>&-
    commit_data "Letter $name at $length tokens, hop $hop (64 examples and 64 decoy-control \
examples, one thread; scripts/letter-long-data.sh): $(summary_line "$piece")" \
      "$piece" "$summary"
  done
  for piece in "${pieces[@]}"; do
    [[ -f $piece ]] || continue 2  # under way in another copy, which joins them
  done
  /usr/bin/python3 scripts/join-eval-pieces.py --out "$out" "${pieces[@]}"
  commit_data "Letter $name at $length tokens, hops ${hops[*]} joined \
(scripts/join-eval-pieces.py): \
$(summary_line "$out")" "$out"
done <<<"$runs"

evals=() summaries=()
for seed in 0 1 2; do
  [[ -f $data/letter-seed$seed-eval-L$length.json ]] || continue
  evals+=("$data/letter-seed$seed-eval-L$length.json")
  summary=$data/letter-seed$seed-summary-L$length.json
  # the runs evaluated at 4096 tokens wrote letter-seedS-summary.json
  [[ -f $summary ]] || summary=$data/letter-seed$seed-summary.json
  summaries+=("$summary")
done
if ((${#evals[@]} >= 2)); then
  "$posbias" seeds --summary "${summaries[@]}" --eval "${evals[@]}" \
    --json "$data/letter-seeds-L$length.json" --csv "$data/letter-seeds-L$length.csv" \
    --plot "$data/letter-seeds-L$length"
  commit_data "Letter at $length tokens over seeds: posbias seeds (scripts/letter-long-data.sh)" \
    "$data"/letter-seeds-L"$length".* "$data"/letter-seeds-L"$length"_*  # data, then figures
fi
