#!/usr/bin/python3
"""Independent reference implementation of the posbias theory engine.

Produces golden influence rows r = e_q^T N_0 N_1 ... N_{H-1}, where
N_l = (1 - alpha_l) I + alpha_l A and A is the generalized expected-attention
operator (window, attention sink, ALiBi slopes).  Positions are 1-indexed.

Deliberately naive: A is built densely (q x q, row by row) and the row vector is
pushed through each layer with a full dense vector-matrix product.  No O(q)
recurrence is used.  Rational parameters are evaluated exactly with
fractions.Fraction; ALiBi (irrational weights) uses decimal.Decimal at 50
significant digits.  The Cesaro closed form is evaluated independently in
Fractions and asserted equal to the dense exact row.

Usage: /usr/bin/python3 tests/golden/theory_reference.py --out tests/golden/theory_golden.json
Standard library only.
"""

import argparse
import json
import math
import sys
import time
from decimal import Decimal, Context, getcontext, ROUND_HALF_EVEN
from fractions import Fraction

getcontext().prec = 50
VALUE_DIGITS = 25

# --------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------

def case(name, length, query, layers, alpha, window=0, slopes=(), sink="0"):
    return {"name": name, "length": length, "query": query, "layers": layers,
            "alpha": list(alpha), "window": window,
            "alibi_slopes": list(slopes), "sink": sink}


CASES = [
    case("cesaro_L12_H3_a1/2", 12, 12, 3, ["1/2"]),
    case("cesaro_L40_H10_a0.18", 40, 40, 10, ["0.18"]),
    case("cesaro_L64_q50_H24_a1", 64, 50, 24, ["1"]),
    case("cesaro_L30_H0", 30, 30, 0, ["1/2"]),
    case("cesaro_L25_H6_per_layer", 25, 25, 6, ["0.1", "0.9", "0.5", "0.3", "1", "0"]),
    case("window_L40_H5_a1/2_W7", 40, 40, 5, ["1/2"], window=7),
    case("window_L33_H8_a0.3_W1", 33, 33, 8, ["0.3"], window=1),
    case("sink_L40_H6_a0.7_s1/5", 40, 40, 6, ["0.7"], sink="1/5"),
    case("window_sink_L36_H4_a1/2_W5_s0.1", 36, 36, 4, ["1/2"], window=5, sink="0.1"),
    case("alibi_L40_H6_a1/2_m0.5", 40, 40, 6, ["1/2"], slopes=[0.5]),
    case("alibi_L48_H4_a0.25_3heads", 48, 48, 4, ["0.25"], slopes=[0.25, 0.0625, 1.5]),
    case("alibi_L40_H3_a1/2_m0.3_W9", 40, 40, 3, ["1/2"], window=9, slopes=[0.3]),
]


def layer_alphas(c):
    a = [Fraction(s) for s in c["alpha"]]
    if len(a) == 1:
        return a * c["layers"]
    if len(a) != c["layers"]:
        raise ValueError("%s: need 1 or %d alphas" % (c["name"], c["layers"]))
    return a


def window_keys(i, w):
    """Keys j (1-indexed) visible from query i: i-W < j <= i, or 1..i if W == 0."""
    lo = 1 if w == 0 else max(1, i - w + 1)
    return range(lo, i + 1)


# --------------------------------------------------------------------------
# Dense operator construction (q x q, 1-indexed via padding row/col 0)
# --------------------------------------------------------------------------

def build_A_exact(q, w, sink):
    """Single slope 0 (uniform): B[i][j] = 1/|window(i)|; exact Fractions."""
    zero, one = Fraction(0), Fraction(1)
    A = [[zero] * (q + 1) for _ in range(q + 1)]
    for i in range(1, q + 1):
        keys = window_keys(i, w)
        b = one / len(keys)
        for j in keys:
            A[i][j] = (one - sink) * b
        A[i][1] += sink
    return A


def build_A_decimal(q, w, sink, slopes):
    """ALiBi: B = mean over heads of windowed softmax of -m_h (i-j); Decimal."""
    zero, one = Decimal(0), Decimal(1)
    # Slopes are the IEEE doubles given (Decimal(float) is exact), matching what
    # a C++ consumer parsing the same literals holds in memory.
    ms = [Decimal(m) for m in slopes] if slopes else [zero]
    # e[h][d] = exp(-m_h d), d = 0..q-1
    e = [[(-m * d).exp() for d in range(q)] for m in ms]
    nh = Decimal(len(ms))
    A = [[zero] * (q + 1) for _ in range(q + 1)]
    for i in range(1, q + 1):
        keys = window_keys(i, w)
        row = [zero] * (q + 1)
        for eh in e:
            z = sum((eh[i - j] for j in keys), zero)
            for j in keys:
                row[j] += eh[i - j] / z
        for j in keys:
            A[i][j] = (one - sink) * (row[j] / nh)
        A[i][1] += sink
    return A


def dense_row(q, alphas, A, zero, one):
    """r = e_q^T N_0 ... N_{H-1}, N_l = (1-a) I + a A, by dense vec-mat products."""
    r = [zero] * (q + 1)
    r[q] = one
    for a in alphas:
        # Build N_l densely, then r <- r N_l over all (i, j).
        N = [[zero] * (q + 1) for _ in range(q + 1)]
        for i in range(1, q + 1):
            Ai, Ni = A[i], N[i]
            for j in range(1, q + 1):
                Ni[j] = a * Ai[j] + ((one - a) if i == j else zero)
        out = [zero] * (q + 1)
        for j in range(1, q + 1):
            s = zero
            for i in range(1, q + 1):
                s += r[i] * N[i][j]
            out[j] = s
        r = out
    return r[1:]


# --------------------------------------------------------------------------
# Cesaro closed form (Fractions)
# --------------------------------------------------------------------------

def cesaro_power_entry(i, j, k):
    """(M^k)[i][j] = C(i-1,j-1) sum_{m=0}^{i-j} (-1)^m C(i-j,m) / (j+m)^k."""
    if j > i:
        return Fraction(0)
    s = Fraction(0)
    for m in range(i - j + 1):
        term = Fraction(math.comb(i - j, m), (j + m) ** k)
        s += -term if m & 1 else term
    return math.comb(i - 1, j - 1) * s


def closed_form_row(q, alphas):
    """Row q of prod_l ((1-a_l) I + a_l M) via polynomial expansion in M.

    For a single alpha the coefficients are C(H,k)(1-a)^{H-k} a^k; this is
    asserted too.  Works for per-layer alphas because all factors commute.
    """
    H = len(alphas)
    coef = [Fraction(1)]  # polynomial in M, coef[k] multiplies M^k
    for a in alphas:
        nxt = [Fraction(0)] * (len(coef) + 1)
        for k, c in enumerate(coef):
            nxt[k] += (1 - a) * c
            nxt[k + 1] += a * c
        coef = nxt
    if len(set(alphas)) <= 1 and H > 0:
        a = alphas[0]
        binom = [math.comb(H, k) * (1 - a) ** (H - k) * a ** k for k in range(H + 1)]
        assert binom == coef, "binomial coefficients mismatch"
    return [sum((c * cesaro_power_entry(q, j, k) for k, c in enumerate(coef) if c),
                Fraction(0)) for j in range(1, q + 1)]


# --------------------------------------------------------------------------
# Output formatting
# --------------------------------------------------------------------------

_LOGCTX = Context(prec=60, rounding=ROUND_HALF_EVEN)
_VALCTX = Context(prec=VALUE_DIGITS, rounding=ROUND_HALF_EVEN)


def to_decimal(x, ctx):
    """Fraction or Decimal -> Decimal rounded in ctx (exact ints, one rounding each)."""
    if isinstance(x, Fraction):
        # Decimal(int) is exact; the division rounds once to ctx.prec.
        return ctx.divide(Decimal(x.numerator), Decimal(x.denominator))
    return ctx.plus(x)


def log10_of(x):
    if x == 0:
        return None
    if x < 0:
        raise ValueError("negative influence entry %r" % (x,))
    return float(_LOGCTX.log10(to_decimal(x, _LOGCTX)))


def value_str(x):
    if x == 0:
        return "0"
    return format(to_decimal(x, _VALCTX), ".%de" % (VALUE_DIGITS - 1))


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------

def run_case(c):
    q, w = c["query"], c["window"]
    assert 1 <= q <= c["length"]
    alphas = layer_alphas(c)
    sink = Fraction(c["sink"])
    checked = False
    if c["alibi_slopes"]:
        dalphas = [Decimal(a.numerator) / Decimal(a.denominator) for a in alphas]
        dsink = Decimal(sink.numerator) / Decimal(sink.denominator)
        A = build_A_decimal(q, w, dsink, c["alibi_slopes"])
        row = dense_row(q, dalphas, A, Decimal(0), Decimal(1))
        # sanity: row sums to 1 (operator row-stochastic)
        assert abs(sum(row) - 1) < Decimal("1e-45"), c["name"]
    else:
        A = build_A_exact(q, w, sink)
        row = dense_row(q, alphas, A, Fraction(0), Fraction(1))
        assert sum(row) == 1, c["name"]
        if w == 0 and sink == 0:
            cf = closed_form_row(q, alphas)
            assert cf == row, "closed form disagrees with dense row: " + c["name"]
            checked = True
    out = dict(c)
    out["log10"] = [log10_of(x) for x in row]
    out["value"] = [value_str(x) for x in row]
    return out, row, checked


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="tests/golden/theory_golden.json")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    results, nchecked = [], 0
    for c in CASES:
        res, _, checked = run_case(c)
        nchecked += checked
        results.append(res)
    text = json.dumps(results, indent=1, allow_nan=False) + "\n"
    with open(args.out, "w") as f:
        f.write(text)
    print("theory_reference: %d cases (%d closed-form self-checks passed), %d entries, "
          "%d bytes -> %s in %.2f s" % (len(results), nchecked,
                                        sum(len(r["value"]) for r in results),
                                        len(text), args.out, time.perf_counter() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
