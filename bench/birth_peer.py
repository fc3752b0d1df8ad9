#!/usr/bin/python3
"""PyTorch peer for the birth benchmark: the influence profile ||d y_q / d x_j||_F of a model at init.

The model is tests/golden/model_reference.py's gpt2 / qwen2 / gptj at Hugging Face init, float32.
The input is x [1, L, D] ~ N(0, initializer_range^2) fed as inputs_embeds; y_q is the final normed
hidden at query q (default: the last position). Timed: forward + all vector-Jacobian products.

  exact       D VJPs with the one-hot cotangents e_d at y_q; profile_j = ||J_j||_F
  hutchinson  k Gaussian probes v ~ N(0, I_D); ||J_j||_F^2 ~ mean_p ||J_j^T v_p||^2

Each method runs in every variant torch 1.13 offers, first on --screen cotangents to rank them; the
fastest then runs --repeats full times and is the reported peer (best time); the others go to
"alternatives" with their screen time extrapolated to all cotangents (seconds_estimated):
  grad_batched  torch.autograd.grad(..., is_grads_batched=True) (vmap over the backward graph)
  vmap_vjp      functorch.vmap(functorch.vjp(...)) (functorch ships with torch 1.13)
  loop          one torch.autograd.grad per cotangent, retain_graph=True on one forward graph
Prints one JSON line. Uses Debian's torch (python3-torch 1.13).
"""
import argparse
import json
import math
import os
import sys
import time
import warnings

# Passive OpenMP waiting: on a shared machine, spinning threads of torch's OpenMP pool can make a
# 2-thread run ten times slower than a 1-thread one. Set before torch loads; a user value wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
import torch  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "golden"))
import model_reference as mr  # noqa: E402


def make_config(a):
    D, NL, H = a.d_model, a.layers, a.heads
    P = max(a.length, 1024)
    if a.arch == "gpt2":
        cfg = dict(model_type="gpt2", vocab_size=a.vocab, n_positions=P, n_embd=D, n_layer=NL, n_head=H,
                   n_inner=a.mlp, activation_function="gelu_new", layer_norm_epsilon=1e-5,
                   initializer_range=0.02, tie_word_embeddings=True)
    elif a.arch == "qwen2":
        cfg = dict(model_type="qwen2", vocab_size=a.vocab, hidden_size=D, intermediate_size=a.mlp or 4 * D,
                   num_hidden_layers=NL, num_attention_heads=H, num_key_value_heads=a.kv_heads or H,
                   hidden_act="silu", max_position_embeddings=P, rms_norm_eps=1e-6, rope_theta=1e6,
                   initializer_range=0.02, tie_word_embeddings=True)
    else:
        cfg = dict(model_type="gptj", vocab_size=a.vocab, n_positions=P, n_embd=D, n_layer=NL, n_head=H,
                   rotary_dim=a.rotary_dim or D // H, n_inner=a.mlp, activation_function="gelu_new",
                   layer_norm_epsilon=1e-5, initializer_range=0.02, tie_word_embeddings=False)
    if a.position_encoding:
        cfg["position_encoding"] = a.position_encoding
    return cfg


def make_fq(model, q):
    """x [1, L, D] -> y_q [D]."""
    return lambda x: model(inputs_embeds=x, hidden_only=True)[0][0, q]


# Every variant returns G [k, L, D] with G[p] = J^T c_p for the k cotangent rows c_p of C [k, D],
# from one forward graph. The batched variants take the cotangents `chunk` rows at a time.

def vjps_grad_batched(fq, x, C, chunk):
    xx = x.detach().requires_grad_(True)
    y = fq(xx)
    parts = []
    for b in range(0, C.shape[0], chunk):
        last = b + chunk >= C.shape[0]
        (g,) = torch.autograd.grad(y, xx, grad_outputs=C[b:b + chunk], is_grads_batched=True, retain_graph=not last)
        parts.append(g[:, 0])
    return torch.cat(parts)


def vjps_vmap(fq, x, C, chunk):
    import functorch
    _, vjp_fn = functorch.vjp(fq, x.detach())
    batched = functorch.vmap(vjp_fn)
    return torch.cat([batched(C[b:b + chunk])[0][:, 0] for b in range(0, C.shape[0], chunk)])


def vjps_loop(fq, x, C, chunk=None):
    xx = x.detach().requires_grad_(True)
    y = fq(xx)
    out = torch.empty((C.shape[0],) + tuple(x.shape[1:]), dtype=x.dtype)
    for p in range(C.shape[0]):
        (g,) = torch.autograd.grad(y, xx, grad_outputs=C[p], retain_graph=p + 1 < C.shape[0])
        out[p] = g[0]
    return out


VARIANTS = {"grad_batched": vjps_grad_batched, "vmap_vjp": vjps_vmap, "loop": vjps_loop}
PEER_NAMES = {
    "grad_batched": "torch.autograd.grad(is_grads_batched=True)",
    "vmap_vjp": "functorch.vmap(functorch.vjp)",
    "loop": "torch.autograd.grad loop (retain_graph)",
}


def profile_from(G, method):
    """G [k, L, D] -> profile [L] (float64)."""
    sq = G.double().pow(2).sum(-1)  # [k, L]
    sq = sq.sum(0) if method == "exact" else sq.mean(0)
    return sq.sqrt()


def spearman(a, b):
    def rank(v):
        v = torch.as_tensor(v, dtype=torch.float64)
        order = torch.argsort(v)
        r = torch.empty_like(v)
        r[order] = torch.arange(len(v), dtype=torch.float64)
        sv = v[order]  # average the ranks of ties
        i = 0
        while i < len(v):
            j = i
            while j + 1 < len(v) and sv[j + 1] == sv[i]:
                j += 1
            if j > i:
                r[order[i:j + 1]] = (i + j) / 2.0
            i = j + 1
        return r
    ra, rb = rank(a), rank(b)
    ra, rb = ra - ra.mean(), rb - rb.mean()
    return float((ra * rb).sum() / math.sqrt(float((ra * ra).sum() * (rb * rb).sum())))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", choices=mr.FAMILIES, default="gpt2")
    ap.add_argument("--layers", type=int, default=12)
    ap.add_argument("--d-model", type=int, default=256)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--kv-heads", type=int, default=None, help="qwen2 key/value heads (default: --heads)")
    ap.add_argument("--mlp", type=int, default=None, help="MLP inner size (default 4*d-model)")
    ap.add_argument("--rotary-dim", type=int, default=None, help="gptj rotary dims (default head_dim)")
    ap.add_argument("--position-encoding", choices=mr.POSITION_ENCODINGS, default=None,
                    help="posbias switch (default: the family's own)")
    ap.add_argument("--vocab", type=int, default=16, help="token table rows (unused: embeddings are fed)")
    ap.add_argument("--length", type=int, default=256)
    ap.add_argument("--query", type=int, default=None, help="1-based query position (default: last)")
    ap.add_argument("--method", choices=("exact", "hutchinson"), default="exact")
    ap.add_argument("--probes", type=int, default=16)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--chunk", type=int, default=32, help="cotangents per batched backward")
    ap.add_argument("--screen", type=int, default=32,
                    help="cotangents used to rank the variants (0: full runs for every variant)")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--unfused", action="store_true", help="use the reference's unfused LayerNorm/GELU")
    ap.add_argument("--variants", default="grad_batched,vmap_vjp,loop",
                    help="comma list of %s" % ",".join(VARIANTS))
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.set_flush_denormal(True)  # as posbias's configure_torch
    warnings.filterwarnings("ignore", message=".*is_grads_batched.*")

    cfg = make_config(a)
    model = mr.build_model(cfg, a.seed, dtype=torch.float32)
    model.fused = not a.unfused  # fused F.layer_norm / F.gelu(approximate="tanh")
    s = model.spec
    L, D = a.length, s.D
    q = (a.query or L) - 1
    if not 0 <= q < L:
        ap.error("--query must be in [1, --length]")
    g = torch.Generator().manual_seed(a.seed + 1)
    x = torch.randn(1, L, D, generator=g) * s.init_std  # [1, L, D]
    if a.method == "exact":
        C = torch.eye(D)  # [D, D] one-hot cotangents
    else:
        C = torch.randn(a.probes, D, generator=g)  # [k, D] Gaussian probes
    fq = make_fq(model, q)

    # Screen: every variant runs once on the first `screen` cotangents (after a one-cotangent
    # warm-up); a loser's full time is extrapolated from it (k/screen times the screen time, which
    # slightly over-counts the one forward). The fastest then runs `repeats` full times; its best is
    # the peer's time. With screen >= k the screen is itself a full run. Exceptions are reported.
    k = C.shape[0]
    S = min(k, a.screen) if a.screen > 0 else k
    results, screens = {}, {}

    def timed(name, rows):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            t0 = time.perf_counter()
            G = VARIANTS[name](fq, x, rows, a.chunk)
            dt = time.perf_counter() - t0
        slow = [str(w.message)[:160] for w in caught if "performance drop" in str(w.message)]
        return G, dt, slow

    for name in [v.strip() for v in a.variants.split(",") if v.strip()]:
        if name not in VARIANTS:
            ap.error("unknown variant %r (have %s)" % (name, ",".join(VARIANTS)))
        try:
            timed(name, C[:1])  # warm-up: thread pools, functorch import, allocator
            G, dt, slow = timed(name, C[:S])
        except Exception as e:
            results[name] = {"error": "%s: %s" % (type(e).__name__, str(e)[:200])}
            continue
        screens[name] = G
        r = {"fallback_warnings": len(slow)}
        if slow:
            r["first_warning"] = slow[0]
        if S == k:
            r.update(seconds=dt, runs=1)
        else:
            r.update(seconds_estimated=dt * k / S, screened_on=S, screen_seconds=dt)
        results[name] = r
    ok = [n for n in results if "error" not in results[n]]
    if not ok:
        print(json.dumps({"error": "no variant ran", "alternatives": results}))
        return 1
    est = lambda n: results[n].get("seconds", results[n].get("seconds_estimated"))
    winner = min(ok, key=est)
    w = results[winner]
    best, G_full = w.get("seconds", math.inf), screens[winner] if S == k else None
    for _ in range(max(1, a.repeats) - (1 if S == k else 0)):
        G, dt, slow = timed(winner, C)
        best, G_full = min(best, dt), G
    w.update(seconds=best, runs=max(1, a.repeats))
    w.pop("seconds_estimated", None), w.pop("screened_on", None), w.pop("screen_seconds", None)
    prof = profile_from(G_full, a.method)
    scale = float(G_full[:S].abs().max())
    for n in ok:  # same cotangents, so the variants must agree to float32 noise
        if n != winner:
            results[n]["max_abs_diff_vs_peer_rel"] = float((screens[n] - G_full[:S]).abs().max()) / scale
    lg = lambda v: math.log10(v) if v > 0 else None
    valid = prof[: q + 1]
    print(json.dumps({
        "peer": PEER_NAMES[winner], "variant": winner, "arch": a.arch, "layers": a.layers, "d_model": D, "heads": s.H,
        "length": L, "query": q + 1, "method": a.method, "probes": a.probes if a.method == "hutchinson" else D,
        "position_encoding": s.pe, "seed": a.seed, "threads": torch.get_num_threads(), "chunk": a.chunk,
        "fused": model.fused, "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY"),
        "seconds": results[winner]["seconds"],
        "profile_log10_first": lg(float(prof[0])), "profile_log10_last": lg(float(prof[q])),
        "profile_log10_min": lg(float(valid.min())), "argmin_position": int(valid.argmin()) + 1,
        "profile_spearman_vs_position": spearman(valid.tolist(), list(range(1, q + 2))),
        "runs": results[winner]["runs"], "fallback_warnings": results[winner]["fallback_warnings"],
        "alternatives": {PEER_NAMES[n]: r for n, r in results.items() if n != winner},
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
