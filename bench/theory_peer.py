#!/usr/bin/python3
"""PyTorch peer for the theory benchmark: row L of ((1-a)I + aM)^H, M = Cesaro (float64).

Prints one JSON line. Uses Debian's torch (python3-torch 1.13).
"""
import argparse, json, math, os, time
import torch


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--length", type=int, default=2048)
    ap.add_argument("--layers", type=int, default=24)
    ap.add_argument("--alpha", type=float, default=0.5)
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    L, H = a.length, a.layers
    threads = os.cpu_count() or 1
    torch.set_num_threads(threads)
    torch.set_flush_denormal(True)  # as posbias's configure_torch

    i = torch.arange(1, L + 1, dtype=torch.float64)
    M = torch.tril(torch.ones(L, L, dtype=torch.float64)) / i[:, None]  # M[i][j] = 1/i, j <= i
    N = (1.0 - a.alpha) * torch.eye(L, dtype=torch.float64) + a.alpha * M

    best, P = math.inf, None
    for _ in range(max(1, a.repeats)):
        t0 = time.perf_counter()
        P = torch.linalg.matrix_power(N, H)
        best = min(best, time.perf_counter() - t0)
    row = P[L - 1]  # query row L (1-indexed), entries j = 1..L

    gemms = (H.bit_length() - 1) + bin(H).count("1") - 1 if H > 0 else 0
    lg = lambda x: math.log10(x) if x > 0 else None
    print(json.dumps({
        "peer": "torch.linalg.matrix_power", "length": L, "layers": H,
        "seconds": best, "threads": torch.get_num_threads(),
        "gflops": gemms * 2.0 * L ** 3 / best / 1e9 if best > 0 else 0.0,
        "row_log10_first": lg(float(row[0])), "row_log10_last": lg(float(row[-1])),
    }))


if __name__ == "__main__":
    main()
