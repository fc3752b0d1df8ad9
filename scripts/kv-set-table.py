#!/usr/bin/env python3
"""A dev experiment, not a product path: replaces the learned position table (param/wpe) of a
posbias training checkpoint, so that a run can be resumed from step 0 with a table other than
the normal init, and rewrites the file's SHA-256 as posbias does (the SHA-256 of the file with
the 64 checksum digits read as '0'). The AdamW moments are left as they are (zero at step 0).
  zeros       every entry 0: the model starts as one without positions, and learns a table
  sinusoidal  the fixed sinusoids of Vaswani et al. (sin at even dims, cos at odd, base 10000),
              scaled so that a row's norm is the normal init's expected one, init_std * sqrt(d)
Usage: scripts/kv-set-table.py CHECKPOINT zeros|sinusoidal INIT_STD
Recipe (a run that resumes from its own step 0 with the new table):
  posbias train ... --log-checkpoints 1 --out RUN &   # stop it once RUN/checkpoints/step_00000000 exists
  rm RUN/checkpoints/step_0000000[1-9]* ; scripts/kv-set-table.py RUN/checkpoints/step_00000000.safetensors zeros 0.02
  posbias train --resume RUN"""
import hashlib
import json
import math
import struct
import sys


def main():
    if len(sys.argv) != 4 or sys.argv[2] not in ("zeros", "sinusoidal"):
        sys.exit("usage: kv-set-table.py CHECKPOINT zeros|sinusoidal INIT_STD")
    path, kind, init_std = sys.argv[1], sys.argv[2], float(sys.argv[3])
    data = bytearray(open(path, "rb").read())
    header_size = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + header_size])
    entry = header["param/wpe"]
    rows, cols = entry["shape"]
    begin, end = entry["data_offsets"]
    values = []
    for pos in range(rows):
        for i in range(cols):
            if kind == "zeros":
                values.append(0.0)
            else:
                angle = pos / 10000 ** ((i - i % 2) / cols)
                values.append(math.sin(angle) if i % 2 == 0 else math.cos(angle))
    if kind == "sinusoidal":  # each row has norm sqrt(cols / 2)
        scale = init_std * math.sqrt(cols) / math.sqrt(cols / 2)
        values = [v * scale for v in values]
    base = 8 + header_size
    data[base + begin: base + end] = struct.pack(f"<{rows * cols}f", *values)
    digits = header["__metadata__"]["sha256"]
    field = f'"sha256":"{digits}"'.encode()
    at = data.index(field, 8) + len(field) - 1 - 64
    data[at:at + 64] = b"0" * 64
    data[at:at + 64] = hashlib.sha256(bytes(data)).hexdigest().encode()
    open(path, "wb").write(bytes(data))


if __name__ == "__main__":
    main()
