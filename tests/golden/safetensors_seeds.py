#!/usr/bin/env python3
"""Writes the safetensors seed files in fuzz/corpus/safetensors/ with the Python standard
library only (struct's 'e' format is IEEE binary16), independently of posbias's C++ writer.
safetensors_test.cc reads mixed.safetensors and checks these exact values.

Usage: python3 tests/golden/safetensors_seeds.py fuzz/corpus/safetensors
"""
import json
import struct
import sys
from pathlib import Path


def bf16(x):
    """Top half of the float32 bits; the values below are exact in bfloat16."""
    return struct.pack("<I", struct.unpack("<I", struct.pack("<f", x))[0])[2:]


def safetensors(tensors, metadata=None, pad=True):
    """tensors: list of (name, dtype, shape, raw bytes), laid out in the given order."""
    header, data = {}, b""
    if metadata is not None:
        header["__metadata__"] = metadata
    for name, dtype, shape, raw in tensors:
        header[name] = {"dtype": dtype, "shape": shape,
                        "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    text = json.dumps(header, separators=(",", ":")).encode()
    if pad:
        text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + data


def main(out):
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    f32 = [1.0, -2.5, 0.125, 3.0e38, -0.0, 1.0e-45]
    f16 = [1.0, -2.0, 65504.0, 2.0 ** -14, 2.0 ** -24, 0.333251953125]
    bf = [1.0, -2.0, 0.333984375, 2.0 ** -133]
    f64 = [0.1, -1.0e300, 1.0e300, 2.0 ** -149]
    i64 = [-1, 0, 2 ** 62]
    mixed = safetensors([
        ("f32", "F32", [2, 3], struct.pack("<6f", *f32)),
        ("f16", "F16", [6], struct.pack("<6e", *f16)),
        ("bf16", "BF16", [2, 2], b"".join(bf16(x) for x in bf)),
        ("f64", "F64", [4], struct.pack("<4d", *f64)),
        ("i64", "I64", [3], struct.pack("<3q", *i64)),
        ("flags", "BOOL", [2], b"\x01\x00"),
        ("empty", "F32", [0, 4], b""),
        ("scalar", "F32", [], struct.pack("<f", 7.5)),
    ], metadata={"format": "pt", "source": "tests/golden/safetensors_seeds.py"})
    (out / "mixed.safetensors").write_bytes(mixed)
    (out / "small.safetensors").write_bytes(safetensors(
        [("wte.weight", "F32", [2, 2], struct.pack("<4f", 0.5, 1.5, -1.0, 2.0))], pad=False))
    (out / "empty_data.safetensors").write_bytes(
        safetensors([("nothing", "F16", [3, 0], b"")], metadata={}))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "fuzz/corpus/safetensors")
