#!/usr/bin/env python3
"""How far each RoPE configuration turns a head's dims over a long input: for head size D,
input length N and each ROTARY_DIM:THETA, the rotated pairs turn by N·θ^(-2i/R) radians
(i = 0 .. R/2 − 1, as posbias's rotary layer computes them), and the D − R other dims do not
turn. Prints CSV: rotary_dim, theta, rotated_dims, unrotated_dims, rotated dims that turn
less than a quarter turn (π/2) over N tokens, and the dims that turn less than that in all.

Usage: scripts/rope-turns.py HEAD_DIM LENGTH ROTARY_DIM:THETA ...
"""
import math
import sys


def main(argv):
    if len(argv) < 4:
        sys.exit("usage: rope-turns.py HEAD_DIM LENGTH ROTARY_DIM:THETA ...")
    head, length = int(argv[1]), int(argv[2])
    print("rotary_dim,theta,rotated_dims,unrotated_dims,rotated_under_quarter_turn,"
          "dims_under_quarter_turn")
    for spec in argv[3:]:
        rotary, theta = spec.split(":")
        rotary, theta = int(rotary), float(theta)
        if rotary % 2 or not 0 <= rotary <= head or theta <= 0:
            sys.exit(f"rope-turns.py: '{spec}': an even rotary dim up to {head}, a base above 0")
        slow = sum(2 for i in range(rotary // 2)
                   if length * theta ** (-2 * i / rotary) < math.pi / 2)
        print(f"{rotary},{theta:g},{rotary},{head - rotary},{slow},{slow + head - rotary}")


if __name__ == "__main__":
    main(sys.argv)
