#!/usr/bin/env bash
# Writes docs/data/llm/SUITE-chance.json: the chance level of a hop suite's default prompts
# (`posbias llm` with its default lengths, hops, count and seed), by length and hop. The
# prompts, and so their chance, do not depend on the model: the script trains a tiny run of
# the task (about 10 s), serves it on a free port, runs the suite, and keeps only `chance`
# (the tiny model's accuracies are not kept). For results stored before summaries carried
# `chance`, such as docs/data/llm/letter.json.
#
#   scripts/llm-chance.sh POSBIAS_BIN SUITE      (SUITE: number or letter)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1
suite=$2
[[ $suite == number || $suite == letter ]] || { echo "llm-chance.sh: SUITE is number or letter" >&2; exit 2; }
dir=$(mktemp -d)
server=
cleanup() { [[ -n $server ]] && kill "$server" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
"$bin" train --task "$suite" --layers 2 --steps 50 --warmup 10 --eval-every 50 \
  --eval-per-hop 16 --checkpoint-every 50 --out "$dir/run" 2>"$dir/train.log" ||
  { cat "$dir/train.log"; exit 1; }
"$bin" serve --run "$suite=$dir/run" --port 0 --port-file "$dir/port" 2>"$dir/serve.log" &
server=$!
for _ in $(seq 200); do [[ -s $dir/port ]] && break; sleep 0.1; done
[[ -s $dir/port ]] || { echo "serve did not start"; cat "$dir/serve.log"; exit 1; }
"$bin" llm --endpoint "http://127.0.0.1:$(cat "$dir/port")" --model "$suite" --suite "$suite" \
  --db "$dir/r.db" --json "$dir/summary.json" --jobs 2 2>"$dir/llm.log" ||
  { cat "$dir/llm.log"; exit 1; }
python3 - "$dir/summary.json" "docs/data/llm/$suite-chance.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["suites"][0]
out = {"suite": s["suite"], "prompts": s["prompts"],
       "what": "chance of the suite's default prompts: the mean over them of 1/k, k the candidate answers",
       "chance": {str(r["length"]): {} for r in s["by_length"]}}
for r in s["by_length"]:
    out["chance"][str(r["length"])][str(r["hops"])] = r["chance"]
json.dump(out, open(sys.argv[2], "w"), indent=1)
open(sys.argv[2], "a").write("\n")
PY
