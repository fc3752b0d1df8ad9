#!/usr/bin/env bash
# `posbias serve` against the official OpenAI Node client (npm openai 4.104.0, pinned; installed
# in data/openai-node by scripts/fetch-openai-client.sh). Trains a tiny kv run and a tiny text
# run (byte tokenizer) in a few seconds, serves both from one server, and a second server of the
# same runs with a 0.05 s --timeout (overload: 503 with Retry-After), then runs
# openai_client_conformance.mjs against them. The main server's --max-body is 4096, so a 10 kB
# prompt gets 413. Each check prints PASS or FAIL with its message; exit 1 when any fails.
#
#   tests/serve/openai_client_conformance.sh POSBIAS_BIN [CLIENT_DIR]
# CLIENT_DIR defaults to data/openai-node. POSBIAS_KEEP=1 keeps the temporary directory.
set -euo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
client=${2:-$root/data/openai-node}
command -v node >/dev/null || { echo "node is not installed (run scripts/install-deps.sh)"; exit 1; }
[[ -f $client/node_modules/openai/package.json ]] ||
  { echo "the OpenAI Node client is not installed in $client (run scripts/fetch-openai-client.sh)"; exit 1; }

dir=$(mktemp -d)
servers=()
# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() {
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${servers[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [[ ${POSBIAS_KEEP:-} == 1 ]]; then echo "kept $dir"; else rm -rf "$dir"; fi
}
trap cleanup EXIT

train() {  # name, flags...
  local name=$1
  shift
  "$bin" train --layers 1 --arch qwen2 "$@" --out "$dir/$name" 2>"$dir/$name.log" >/dev/null ||
    { echo "training the $name run failed:"; tail -n 5 "$dir/$name.log"; exit 1; }
}
start=$(date +%s)
# The kv run need not learn (its answers are 3 kv tokens whatever it learned); the text run
# learns enough in 400 steps (5 s) to continue "The jury said" with words, not only spaces.
train kv --task kv --d-model 32 --heads 2 --mlp 64 -L 16 --steps 20 --warmup 5 --batch 8 \
  --eval-every 20 --checkpoint-every 20
train text --task text --tokenizer bytes --d-model 64 --heads 4 --mlp 128 -L 64 --steps 400 \
  --warmup 20 --batch 8 --lr 5e-3 --eval-every 400 --eval-windows 4 --checkpoint-every 400
echo "trained the kv and text runs in $(($(date +%s) - start)) s"

serve() {  # name, flags...
  local name=$1
  shift
  "$bin" serve --run "kv=$dir/kv" --run "text=$dir/text" --port 0 --port-file "$dir/$name.port" "$@" \
    2>"$dir/$name.log" &
  servers+=($!)
}
serve main --max-body 4096
serve busy --timeout 0.05
for name in main busy; do
  for _ in $(seq 300); do [[ -s $dir/$name.port ]] && break; sleep 0.1; done
  [[ -s $dir/$name.port ]] || { echo "serve ($name) did not start:"; tail -n 5 "$dir/$name.log"; exit 1; }
done

status=0
OPENAI_NODE_DIR=$client node "$here/openai_client_conformance.mjs" \
  "http://127.0.0.1:$(cat "$dir/main.port")/v1" "http://127.0.0.1:$(cat "$dir/busy.port")/v1" ||
  status=$?
for i in "${!servers[@]}"; do
  kill -0 "${servers[$i]}" 2>/dev/null || { echo "FAIL: serve (server $i) died"; status=1; }
done
if ((status)); then
  echo "--- main server's log (last lines)"
  tail -n 20 "$dir/main.log"
fi
echo "wall time $(($(date +%s) - start)) s"
exit $status
