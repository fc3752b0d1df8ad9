#!/usr/bin/env bash
# A hostile round against posbias: each probe feeds a command what a careless or malicious
# user would (broken or foreign models, edited run files, device nodes, deep JSON, shell lines
# in a grid, huge counts) and checks that nothing wrong comes out with exit 0, no file outside
# the named outputs changes, and no probe runs away with memory or time.
#
#   scripts/hostile-probes.sh build/posbias [WORK_DIR]
#
# Prints one line per probe ("held" or "FAILED" with what happened) and closes with
# "hostile: N passed, M failed". Needs about 6 minutes on 2 cores (it trains two tiny runs).
# Runs as any user; the device-node probes need root (mknod) and are skipped otherwise.
set -uo pipefail

BIN=$(realpath "${1:?usage: hostile-probes.sh POSBIAS_BINARY [WORK_DIR]}")
WORK=${2:-$(mktemp -d /tmp/posbias-hostile.XXXXXX)}
mkdir -p "$WORK"
cd "$WORK" || exit 1
export OMP_NUM_THREADS=1
passed=0
failed=0
LIMIT="timeout -k 5 120 prlimit --as=6000000000"  # no probe may pass 6 GB or 2 minutes

held() { passed=$((passed + 1)); echo "held    $1"; }
broke() { failed=$((failed + 1)); echo "FAILED  $1: $2"; }

# run NAME EXPECTED_EXIT CMD...: the exit code must be EXPECTED_EXIT and stderr one line.
expect_exit() {
  local name=$1 want=$2
  shift 2
  $LIMIT "$@" >"$WORK/out.txt" 2>"$WORK/err.txt" </dev/null
  local rc=$?
  local lines
  lines=$(grep -c . "$WORK/err.txt")
  if [[ $rc -ne $want ]]; then
    broke "$name" "exit $rc (want $want): $(tail -c 300 "$WORK/err.txt" | tr '\n' ' ')"
  elif [[ $want -ne 0 && $lines -ne 1 ]]; then
    broke "$name" "exit $rc but $lines lines on stderr: $(head -c 300 "$WORK/err.txt" | tr '\n' ' ')"
  else
    held "$name"
  fi
}

# Tree fingerprint of a folder: every file's name and SHA-256.
fingerprint() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }

TRAIN_FLAGS=(--task letter --layers 2 --d-model 64 --mlp 128 --eval-every 10
  --checkpoint-every 20 --warmup 10 --eval-per-hop 16 --batch 32 --dropout 0)

echo "hostile: work folder $WORK" >&2
echo "hostile: training RUN (seed 0) and OTHER (seed 1), 120 steps each" >&2
"$BIN" train "${TRAIN_FLAGS[@]}" --steps 120 --seed 0 --out RUN 2>/dev/null ||
  { echo "hostile: could not train RUN" >&2; exit 1; }
"$BIN" train "${TRAIN_FLAGS[@]}" --steps 120 --seed 1 --out OTHER 2>/dev/null ||
  { echo "hostile: could not train OTHER" >&2; exit 1; }

# --- 1. Outputs never replace what is not a regular file --------------------------------
if [[ $(id -u) -eq 0 ]]; then
  rm -f node && mknod -m 666 node c 1 3
  "$BIN" theory -L 100 -H 2 --out node 2>/dev/null
  [[ -c node ]] && held "theory --out onto a character device keeps the device" ||
    broke "theory --out onto a character device" "the node was replaced"
  rm -f node
fi
mkfifo fifo
(cat fifo >fifo.read &)
"$BIN" theory -L 100 -H 2 --out fifo 2>/dev/null
sleep 0.2
[[ -p fifo && -s fifo.read ]] && held "theory --out onto a FIFO writes through it" ||
  broke "theory --out onto a FIFO" "FIFO replaced or nothing written"
echo keep >target.txt
ln -sf target.txt link.txt
"$BIN" theory -L 100 -H 2 --out link.txt 2>/dev/null
if [[ -L link.txt && $(head -c 8 target.txt) == position ]]; then
  held "theory --out through a symlink writes its target and keeps the link"
else
  broke "theory --out through a symlink" "link replaced or target not written"
fi
mkdir -p adir
expect_exit "theory --out onto a directory" 1 "$BIN" theory -L 100 -H 2 --out adir
"$BIN" theory -L 100 -H 2 --out /dev/stdout >/dev/null 2>&1 && [[ -c /dev/null ]] &&
  held "theory --out /dev/stdout" || broke "theory --out /dev/stdout" "failed"
expect_exit "theory > /dev/full" 1 sh -c "'$BIN' theory -L 100 -H 2 > /dev/full"
expect_exit "eval --json onto a directory" 1 "$BIN" eval --run RUN --lengths 17 --count 4 --json adir

# --- 2. Broken and foreign models are never served or reported ----------------------------
expect_exit "train with adam-eps 1e-45 stops before saving NaN weights" 1 \
  "$BIN" train --task letter --layers 2 --d-model 64 --mlp 128 --eval-per-hop 16 --batch 32 \
  --dropout 0 --steps 1 --eval-every 1 --checkpoint-every 1 --warmup 0 --adam-eps 1e-45 --out NAN
python3 - NAN <<'EOF' && broke "train with adam-eps 1e-45" "a non-finite weight was saved" || held "no non-finite weight saved"
import json, struct, sys, glob, math
for f in glob.glob(sys.argv[1] + "/**/*.safetensors", recursive=True):
    raw = open(f, "rb").read()
    n = struct.unpack("<Q", raw[:8])[0]
    head = json.loads(raw[8:8 + n])
    for k, v in head.items():
        if k == "__metadata__" or v["dtype"] != "F32":
            continue
        a, b = v["data_offsets"]
        data = raw[8 + n + a: 8 + n + b]
        for i in range(0, len(data), 4):
            if not math.isfinite(struct.unpack_from("<f", data, i)[0]):
                sys.exit(0)
sys.exit(1)
EOF

# A copy of RUN whose model.safetensors and newest checkpoint have a NaN written into them.
cp -r RUN POISON
python3 - POISON <<'EOF'
import json, struct, sys, glob
for f in [sys.argv[1] + "/model.safetensors"] + sorted(glob.glob(sys.argv[1] + "/checkpoints/*.safetensors")):
    raw = bytearray(open(f, "rb").read())
    n = struct.unpack("<Q", raw[:8])[0]
    head = json.loads(raw[8:8 + n])
    k = next(k for k, v in head.items() if k != "__metadata__" and v["dtype"] == "F32")
    a = head[k]["data_offsets"][0]
    struct.pack_into("<f", raw, 8 + n + a, float("nan"))
    open(f, "wb").write(raw)
EOF
expect_exit "eval --run on NaN weights" 1 "$BIN" eval --run POISON --lengths 17 --count 4
expect_exit "heads --run on NaN weights" 1 "$BIN" heads --run POISON --checkpoints last
expect_exit "serve --run on NaN weights" 1 "$BIN" serve --run POISON --port 0

# A copy of RUN whose checkpoints and model are OTHER's (another seed).
cp -r RUN FOREIGN
cp OTHER/checkpoints/* FOREIGN/checkpoints/
cp OTHER/model.safetensors FOREIGN/model.safetensors
expect_exit "eval --run on a foreign checkpoint" 1 "$BIN" eval --run FOREIGN --lengths 17 --count 4
expect_exit "serve --run on a foreign checkpoint" 1 "$BIN" serve --run FOREIGN --port 0
expect_exit "eval --run on the untouched run" 0 "$BIN" eval --run RUN --lengths 17 --count 4

# Editing train.json: resume refuses and changes nothing.
cp -r RUN EDITED
sed -i 's/"seed": 0/"seed": 5/' EDITED/train.json
before=$(fingerprint EDITED)
expect_exit "train --resume after train.json was edited" 1 "$BIN" train --resume EDITED
[[ $(fingerprint EDITED) == "$before" ]] && held "the edited run is unchanged" ||
  broke "train --resume after train.json was edited" "files changed"

# A garbage metrics row: resume refuses or rebuilds, and says so.
cp -r RUN METRICS
sed -i '3s/.*/garbage/' METRICS/metrics.jsonl
"$BIN" train --resume METRICS >/dev/null 2>METRICS.err
rc=$?
if ! grep -qi "metrics" METRICS.err; then
  broke "resume over a garbage metrics row" "exit $rc and no line about metrics.jsonl"
elif [[ $rc -eq 0 ]] && grep -q "^garbage" METRICS/metrics.jsonl; then
  broke "resume over a garbage metrics row" "exit 0 with the garbage row kept"
else
  held "resume over a garbage metrics row is refused or rebuilt, with a line (exit $rc)"
fi

# seeds pools only runs that differ in their seed.
"$BIN" train --task letter --layers 1 --d-model 32 --mlp 64 --steps 20 --eval-every 10 \
  --checkpoint-every 10 --warmup 2 --eval-per-hop 8 --batch 16 --seed 1 --out SMALL >/dev/null 2>&1
expect_exit "seeds over runs of different configs" 1 "$BIN" seeds --summary RUN/summary.json SMALL/summary.json

# --- 3. Parsers, devices, injection --------------------------------------------------------
python3 -c 'print("[" * 100000 + "]" * 100000)' >deep.json
expect_exit "sweep plan on a 100000-deep grid" 1 "$BIN" sweep plan deep.json -o SWEEP_DEEP
expect_exit "tasks check /dev/urandom" 1 "$BIN" tasks check /dev/urandom
: >empty.jsonl
expect_exit "tasks check on an empty file" 1 "$BIN" tasks check empty.jsonl
cat >inject.json <<'EOF'
{"command": ["train", "--task", "number", "--layers", "1", "--d-model", "32", "--mlp", "64",
             "--steps", "10", "--out", "{run}/train"],
 "grid": {"--lr": [0.001]}, "seeds": [0], "result": "{run}/train/summary.json",
 "slurm": {"mem": "4G\ntouch /tmp/posbias-hostile-injected"}}
EOF
expect_exit "sweep plan with a shell line in slurm.mem" 2 "$BIN" sweep plan inject.json -o SWEEP_INJ
[[ ! -e /tmp/posbias-hostile-injected ]] && held "no injected file" || broke "sweep injection" "file made"

# --- 4. Memory: refused before it is allocated ---------------------------------------------
# Examples are made a batch at a time, so a huge count costs time, not memory: still running
# inside the address-space limit after 30 s (exit 124 from timeout) holds; an allocation
# failure does not.
within_memory() {
  local name=$1
  shift
  timeout -k 5 30 prlimit --as=6000000000 "$@" >"$WORK/out.txt" 2>"$WORK/err.txt" </dev/null
  local rc=$?
  if [[ $rc -eq 0 || $rc -eq 124 ]]; then
    held "$name (exit $rc: within 6 GB)"
  else
    broke "$name" "exit $rc: $(tail -c 300 "$WORK/err.txt" | tr '\n' ' ')"
  fi
}
within_memory "eval --lengths 100000 --count 2000 --memory-budget 1" \
  "$BIN" eval --run RUN --lengths 100000 --count 2000 --memory-budget 1
expect_exit "heads -L 65536 --samples 20000 --memory-budget 1" 2 \
  "$BIN" heads --run RUN -L 65536 --samples 20000 --memory-budget 1
within_memory "discrepancy --run --lengths 65536 --count 100000" \
  "$BIN" discrepancy --run RUN --lengths 65536 --count 100000 --memory-budget 1

echo "hostile: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
