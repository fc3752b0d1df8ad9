#!/usr/bin/env python3
"""Joins the pieces of a hop evaluation run with `posbias eval --hops H` into the file one
whole `posbias eval` writes (the file `posbias seeds --eval` reads).

Each piece scores some hops on the examples the whole evaluation draws for them, so the pieces
of one run, checkpoint, seed, count and lengths, whose hops together are the run's, join into
the whole evaluation's numbers: each hop's accuracy and chance as the piece gives them, and the
all-hop values, the control's and the decoy rate recomputed from the counts the pieces imply
(correct = accuracy x count, decoy picks = rate x examples), as `posbias eval` computes them.
seconds is the pieces' sum.

Usage: join-eval-pieces.py --out FILE PIECE.json [PIECE.json ...]
Exit 2 on bad usage or pieces that do not join (one line naming the problem), 0 otherwise.
"""
import argparse
import json
import os
import sys

SAME = ("task", "run", "checkpoint", "step", "count_per_hop", "seed", "lengths")


class JoinError(Exception):
    pass


def piece_hops(piece, name):
    """The hops a piece scored: its accuracy's keys other than "all", the same at every length."""
    keys = None
    for length, row in piece["accuracy"].items():
        hops = sorted(k for k in row if k != "all")
        if keys is not None and hops != keys:
            raise JoinError(f"{name}: length {length} has hops {hops}, another length {keys}")
        keys = hops
    if not keys:
        raise JoinError(f"{name}: no hop accuracy")
    return keys


def join_rows(rows, count, key):
    """One length's rows of every piece → hop → value, with "all" over the hops' examples."""
    out, total = {}, 0.0
    for row in rows:
        for hop, value in row.items():
            if hop == "all":
                continue
            out[hop] = value
            # accuracy: correct = value x count, an integer; chance: the sum of 1/candidates
            total += round(value * count) if key == "accuracy" else value * count
    out["all"] = total / (count * len(out))
    return out


def join_group(parts, key, count, lengths):
    """parts' `key` (accuracy or chance) at every length, joined; None when a part lacks it."""
    if any(key not in part for part in parts):
        return None
    return {str(n): join_rows([part[key][str(n)] for part in parts], count, key) for n in lengths}


def join_controls(pieces, count, lengths, hops_per_piece):
    if any("controls" not in p for p in pieces):
        if any("controls" in p for p in pieces):
            raise JoinError("some pieces have the control and some do not")
        return None
    out = {}
    for variant in pieces[0]["controls"]:
        parts = [p["controls"].get(variant) for p in pieces]
        if any(part is None for part in parts):
            raise JoinError(f"some pieces lack the {variant} control")
        control = {"accuracy": join_group(parts, "accuracy", count, lengths)}
        chance = join_group(parts, "chance", count, lengths)
        if chance is not None:
            control["chance"] = chance
        if all("decoy_rate" in c for c in parts):
            examples = [count * len(h) for h in hops_per_piece]
            control["decoy_rate"] = {
                str(n): sum(round(c["decoy_rate"][str(n)] * e) for c, e in zip(parts, examples))
                / sum(examples)
                for n in lengths
            }
        out[variant] = control
    return out


def join(pieces, names):
    first = pieces[0]
    for piece, name in zip(pieces, names):
        for key in SAME:
            if piece.get(key) != first.get(key):
                raise JoinError(f"{name}: {key} {piece.get(key)!r} differs from {names[0]}'s "
                                f"{first.get(key)!r}; join pieces of one evaluation only")
    hops_per_piece = [piece_hops(p, n) for p, n in zip(pieces, names)]
    seen = {}
    for hops, name in zip(hops_per_piece, names):
        for hop in hops:
            if hop in seen:
                raise JoinError(f"hop {hop} is in both {seen[hop]} and {name}")
            seen[hop] = name
    count, lengths = first["count_per_hop"], first["lengths"]
    out = {key: first[key] for key in SAME}
    out["accuracy"] = join_group(pieces, "accuracy", count, lengths)
    chance = join_group(pieces, "chance", count, lengths)
    if chance is not None:
        out["chance"] = chance
    if all("attention" in p for p in pieces):
        if any(p["attention"] != first["attention"] for p in pieces):
            raise JoinError("the pieces used different attention paths")
        out["attention"] = first["attention"]
    controls = join_controls(pieces, count, lengths, hops_per_piece)
    if controls is not None:
        out["controls"] = controls
    out["seconds"] = sum(p["seconds"] for p in pieces)
    return dict(sorted(out.items()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="the joined evaluation's JSON")
    parser.add_argument("pieces", nargs="+", help="eval --hops files of one evaluation")
    args = parser.parse_args()
    try:
        pieces = []
        for name in args.pieces:
            with open(name, encoding="utf-8") as f:
                pieces.append(json.load(f))
        joined = join(pieces, args.pieces)
    except KeyError as e:
        print(f"join-eval-pieces: a piece lacks the field {e}", file=sys.stderr)
        return 2
    except (OSError, ValueError, JoinError) as e:
        print(f"join-eval-pieces: {e}", file=sys.stderr)
        return 2
    with open(args.out + ".tmp", "w", encoding="utf-8") as f:
        json.dump(joined, f, indent=2)
        f.write("\n")
    os.replace(args.out + ".tmp", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
