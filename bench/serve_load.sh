#!/usr/bin/env bash
# Load on `posbias serve` with wrk: 8 connections POST Letter-task completions (random
# vocabulary tokens, 17 to 256 per prompt) for DURATION seconds after a warm-up of the same
# length. Prints requests/s and p50/p90/p99 latency, and fails (exit 1) on any non-2xx
# response or socket error, or when the server's resident memory grows by more than 8 MiB
# between the end of the warm-up and the end of the measured run.
#
#   bench/serve_load.sh POSBIAS_BIN [RUN_DIR] [DURATION_SECONDS] [CONNECTIONS] [JSON_OUT]
# Without RUN_DIR (or with "") a tiny Letter run is trained first (about 10 s). With JSON_OUT
# the measured row is also written there (requests/s, latency percentiles in ms, RSS in MiB,
# the run's layers and d_model, the error counts, the machine's cores, its load average just
# before the measured run, and the date).
set -euo pipefail
bin=$1
run=${2:-}
duration=${3:-10}
connections=${4:-8}
json_out=${5:-}
command -v wrk >/dev/null || { echo "wrk is not installed (run scripts/install-deps.sh)"; exit 1; }
dir=$(mktemp -d)
server=
cleanup() { [[ -n $server ]] && kill "$server" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
if [[ -z $run ]]; then
  run=$dir/letter
  "$bin" train --task letter --layers 2 --hops 1 --steps 50 --warmup 10 --eval-every 50 \
    --eval-per-hop 16 --checkpoint-every 50 --out "$run" 2>"$dir/train.log" ||
    { cat "$dir/train.log"; exit 1; }
fi
"$bin" serve --run "load=$run" --port 0 --port-file "$dir/port" 2>"$dir/serve.log" &
server=$!
for _ in $(seq 200); do [[ -s $dir/port ]] && break; sleep 0.1; done
[[ -s $dir/port ]] || { echo "serve did not start"; cat "$dir/serve.log"; exit 1; }
port=$(cat "$dir/port")
cat >"$dir/post.lua" <<'LUA'
local letters = {"a", "b", "c", "d", "e", "f", "g", "h"}
local rights = {"a", "b", "c", "d", "e", "f", "g", "h", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}
local bodies = {}
math.randomseed(7)
for i = 1, 64 do
  local n = ({17, 64, 128, 256})[(i % 4) + 1]
  local t = {}
  for k = 1, n do t[k] = letters[math.random(8)] .. ":" .. rights[math.random(18)] end
  bodies[i] = '{"model": "load", "max_tokens": 1, "prompt": "Solve:\\n' .. table.concat(t, " ") .. '"}'
end
local i = 0
request = function()
  i = i % #bodies + 1
  return wrk.format("POST", "/v1/completions", {["Content-Type"] = "application/json"}, bodies[i])
end
LUA
rss() { awk '/VmRSS/ {print $2}' "/proc/$server/status"; }
url=http://127.0.0.1:$port
wrk -t2 -c"$connections" -d"${duration}s" -s "$dir/post.lua" "$url" >"$dir/warmup.txt"
rss_warm=$(rss)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
wrk -t2 -c"$connections" -d"${duration}s" --latency -s "$dir/post.lua" "$url" >"$dir/run.txt"
rss_end=$(rss)
cat "$dir/run.txt"
rps=$(awk '/Requests\/sec/ {print $2}' "$dir/run.txt")
p50=$(awk '$1 == "50%" {print $2}' "$dir/run.txt")
p90=$(awk '$1 == "90%" {print $2}' "$dir/run.txt")
p99=$(awk '$1 == "99%" {print $2}' "$dir/run.txt")
growth=$((rss_end - rss_warm))
if [[ -n $json_out ]]; then
  python3 - "$dir/run.txt" "$run/train.json" "$json_out" "$connections" "$duration" \
    "$rss_warm" "$rss_end" "${2:-}" "$load_before" <<'PY'
import datetime, json, os, re, sys
run_txt, train_json, out, connections, duration, rss_warm, rss_end, given, load = sys.argv[1:10]
text = open(run_txt).read()
def ms(v):  # wrk prints 850.00us, 44.12ms, 1.02s
    n, unit = re.fullmatch(r"([0-9.]+)(us|ms|s|m)", v).groups()
    return float(n) * {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 6e4}[unit]
latency = {p: ms(re.search(rf"^\s*{p}%\s+(\S+)", text, re.M).group(1)) for p in ("50", "90", "99")}
config = json.load(open(train_json)).get("config", {})
row = {"command": "bench/serve_load.sh", "run": "a tiny Letter run trained by the script"
       if not given else os.path.basename(os.path.normpath(given)),
       "layers": config.get("layers"), "d_model": config.get("d_model"),
       "connections": int(connections), "duration_seconds": int(duration),
       "requests_per_second": float(re.search(r"Requests/sec:\s+([0-9.]+)", text).group(1)),
       "p50_ms": latency["50"], "p90_ms": latency["90"], "p99_ms": latency["99"],
       "rss_after_warmup_mib": int(rss_warm) / 1024, "rss_after_run_mib": int(rss_end) / 1024,
       "non_2xx": "Non-2xx" in text, "socket_errors": "Socket errors" in text,
       "cores": os.cpu_count(), "load_average_before": [float(v) for v in load.split()],
       "date": datetime.datetime.utcnow().isoformat(timespec="seconds") + "Z"}
json.dump(row, open(out, "w"), indent=1)
open(out, "a").write("\n")
PY
fi
echo "serve load: $connections connections, ${duration}s: $rps requests/s, p50 $p50, p90 $p90, p99 $p99;" \
  "RSS $((rss_warm / 1024)) MiB after warm-up, $((rss_end / 1024)) MiB after the run (growth ${growth} KiB)"
status=0
if grep -q "Non-2xx" "$dir/warmup.txt" "$dir/run.txt"; then echo "FAIL: non-2xx responses"; status=1; fi
if grep -q "Socket errors" "$dir/warmup.txt" "$dir/run.txt"; then echo "FAIL: socket errors"; status=1; fi
if ((growth > 8192)); then echo "FAIL: resident memory grew by ${growth} KiB"; status=1; fi
kill -0 "$server" || { echo "FAIL: serve died"; status=1; }
exit $status
