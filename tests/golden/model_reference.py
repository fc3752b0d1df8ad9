#!/usr/bin/python3
"""Independent PyTorch reference for the posbias model families (gpt2, qwen2, gptj, llama).

Written from the architecture facts of Hugging Face transformers (modeling_gpt2.py,
modeling_qwen2.py, modeling_gptj.py, modeling_llama.py, modeling_mistral.py,
pytorch_utils.Conv1D, activations.NewGELUActivation),
re-implemented functionally: a model is a resolved config (`Spec`) plus an ordered dict of
tensors under their Hugging Face names. No transformers import, no code copied.

Shape legend: B batch, L sequence length, D hidden size, H query heads, K key/value heads,
E head dim, R rotary dims, I MLP inner size, V vocabulary, P position-table rows.

Extension (posbias): config.json field "position_encoding" in {"learned","rope","none","alibi"}.
  learned  add wpe[pos] to the token embeddings (table "<prefix>wpe.weight", P = n_positions /
           max_position_embeddings); gpt2's native scheme
  rope     rotary on q,k in the family's native layout: gptj interleaved pairs (x[2i],x[2i+1])
           on the first rotary_dim dims; qwen2/llama/gpt2 rotate_half on the first rotary_dim
           dims (rotary_dim = config.rotary_dim or E); theta = config.rope_theta or 10000 (gpt2,
           gptj, llama, mistral) / 1e6 (qwen2)
  none     no position information (the causal mask only)
  alibi    scores += -m_h (i - j), m_h = 2^(-8 h / H), h = 1..H, added after the 1/sqrt(E) scale
Defaults: gpt2 learned, qwen2, gptj, llama and mistral rope.

llama (LlamaForCausalLM) is qwen2's block with its own switches: attention_bias (q, k, v and
o_proj biases, default false) and mlp_bias (gate, up and down biases, default false). mistral
(MistralForCausalLM) is llama without those switches plus sliding_window (default 4096; null:
none): query i attends to keys j with i - W < j <= i in every layer.

CLI: /usr/bin/python3 tests/golden/model_reference.py --out tests/golden/models
writes one folder per golden case (see tests/golden/README.md).
"""

import argparse
import json
import math
import os
import struct
import sys
from collections import OrderedDict

import torch
import torch.nn.functional as F

FAMILIES = ("gpt2", "qwen2", "gptj", "llama", "mistral")
LLAMA_LIKE = ("qwen2", "llama", "mistral")  # Llama's field names, tensor names and block
POSITION_ENCODINGS = ("learned", "rope", "none", "alibi")


# ----------------------------------------------------------------------------------------------
# Config resolution: every derived field is filled in and checked here, once.

class Spec:
    """Resolved architecture. Field legend: V vocab, D hidden, n_layer, H heads, K kv heads,
    E head dim, I MLP inner, P position rows (0 if none), R rotary dims."""

    def __repr__(self):
        return "Spec(%s)" % ", ".join("%s=%r" % kv for kv in sorted(vars(self).items()))


def _need(cfg, key):
    if key not in cfg or cfg[key] is None:
        raise ValueError("config.json: missing field %r for model_type %r" % (key, cfg.get("model_type")))
    return cfg[key]


def resolve_config(cfg):
    s = Spec()
    s.family = cfg.get("model_type")
    if s.family not in FAMILIES:
        raise ValueError("config.json: model_type %r is not one of %s" % (s.family, FAMILIES))
    s.V = int(_need(cfg, "vocab_size"))
    if s.family in ("gpt2", "gptj"):
        s.D = int(_need(cfg, "n_embd"))
        s.n_layer = int(_need(cfg, "n_layer"))
        s.H = int(_need(cfg, "n_head"))
        s.K = s.H
        s.I = int(cfg["n_inner"]) if cfg.get("n_inner") is not None else 4 * s.D
        s.act = cfg.get("activation_function", "gelu_new")
        s.eps = float(cfg.get("layer_norm_epsilon", 1e-5))
        s.max_pos = cfg.get("n_positions")
        # PretrainedConfig defaults tie_word_embeddings to True; GPTJConfig does not override it,
        # but posbias (like the released GPT-J checkpoints) treats gptj as untied by default.
        s.tie = bool(cfg.get("tie_word_embeddings", s.family == "gpt2"))
        s.E = s.D // s.H
        default_pe = "learned" if s.family == "gpt2" else "rope"
        default_theta = 10000.0
    else:  # qwen2, llama, mistral
        s.D = int(_need(cfg, "hidden_size"))
        s.n_layer = int(_need(cfg, "num_hidden_layers"))
        s.H = int(_need(cfg, "num_attention_heads"))
        s.K = int(cfg.get("num_key_value_heads") or s.H)
        s.I = int(_need(cfg, "intermediate_size"))
        s.act = cfg.get("hidden_act", "silu")
        s.eps = float(cfg.get("rms_norm_eps", 1e-6))
        s.max_pos = cfg.get("max_position_embeddings")
        s.tie = bool(cfg.get("tie_word_embeddings", False))
        s.E = int(cfg.get("head_dim") or s.D // s.H)
        default_pe = "rope"
        default_theta = 1e6 if s.family == "qwen2" else 10000.0
    # Biases: gpt2 everywhere; qwen2 on q, k, v; llama as its switches say; gptj and mistral none
    # inside the block (gptj's MLP and head have theirs, handled in its own tables).
    s.qkv_bias = s.family == "qwen2" or (s.family == "llama" and bool(cfg.get("attention_bias", False)))
    s.o_bias = s.family == "llama" and bool(cfg.get("attention_bias", False))
    s.mlp_bias = s.family == "llama" and bool(cfg.get("mlp_bias", False))
    s.window = 0
    if s.family == "mistral":
        w = cfg.get("sliding_window", 4096)
        s.window = 0 if w is None else int(w)
        if s.window < 0:
            raise ValueError("sliding_window %d must be >= 1" % s.window)
    # Hugging Face options this reference does not implement: refuse rather than silently differ.
    for key, off in (("scale_attn_by_inverse_layer_idx", False), ("reorder_and_upcast_attn", False),
                     ("use_sliding_window", False), ("rope_scaling", None), ("add_cross_attention", False)):
        if cfg.get(key, off) not in (off, None):
            raise ValueError("config.json: %s=%r is not supported" % (key, cfg[key]))
    if cfg.get("scale_attn_weights", True) is not True:
        raise ValueError("config.json: scale_attn_weights=false is not supported")
    s.init_std = float(cfg.get("initializer_range", 0.02))
    s.pe = cfg.get("position_encoding", default_pe)
    if s.pe not in POSITION_ENCODINGS:
        raise ValueError("config.json: position_encoding %r is not one of %s" % (s.pe, POSITION_ENCODINGS))
    if s.H <= 0 or s.K <= 0 or s.H % s.K != 0:
        raise ValueError("num_attention_heads %d must be a positive multiple of num_key_value_heads %d" % (s.H, s.K))
    if s.family not in LLAMA_LIKE and s.E * s.H != s.D:
        raise ValueError("n_embd %d must be divisible by n_head %d" % (s.D, s.H))
    s.P = 0
    if s.pe == "learned":
        if s.max_pos is None:
            raise ValueError("position_encoding 'learned' needs n_positions / max_position_embeddings")
        s.P = int(s.max_pos)
    s.R = 0
    s.theta = None
    if s.pe == "rope":
        s.R = int(cfg.get("rotary_dim") or s.E)
        if s.R <= 0 or s.R > s.E or s.R % 2:
            raise ValueError("rotary_dim %d must be even and in [2, head_dim=%d]" % (s.R, s.E))
        s.theta = float(cfg.get("rope_theta") or default_theta)
        s.rope_layout = "interleaved" if s.family == "gptj" else "rotate_half"
    if s.act not in ACT:
        raise ValueError("activation %r not supported (%s)" % (s.act, sorted(ACT)))
    return s


def default_prefix(family):
    """Prefix of the top-level tensors as a *ForCausalLM / *LMHeadModel save writes them."""
    return {"gpt2": "transformer.", "qwen2": "model.", "gptj": "transformer.", "llama": "model.",
            "mistral": "model."}[family]


# ----------------------------------------------------------------------------------------------
# Parameters: names, shapes and HF-style init

def param_table(s, prefix):
    """Ordered (name, shape, init) for every tensor. init: ("normal", std) | ("zeros",) | ("ones",)."""
    p = prefix
    t = []
    n = ("normal", s.init_std)
    z, o = ("zeros",), ("ones",)
    if s.family == "gpt2":
        resid = ("normal", s.init_std / math.sqrt(2 * s.n_layer))  # GPT-2 scaled c_proj init
        t.append((p + "wte.weight", (s.V, s.D), n))
        if s.P:
            t.append((p + "wpe.weight", (s.P, s.D), n))
        for i in range(s.n_layer):
            h = "%sh.%d." % (p, i)
            t += [(h + "ln_1.weight", (s.D,), o), (h + "ln_1.bias", (s.D,), z),
                  (h + "attn.c_attn.weight", (s.D, 3 * s.D), n), (h + "attn.c_attn.bias", (3 * s.D,), z),
                  (h + "attn.c_proj.weight", (s.D, s.D), resid), (h + "attn.c_proj.bias", (s.D,), z),
                  (h + "ln_2.weight", (s.D,), o), (h + "ln_2.bias", (s.D,), z),
                  (h + "mlp.c_fc.weight", (s.D, s.I), n), (h + "mlp.c_fc.bias", (s.I,), z),
                  (h + "mlp.c_proj.weight", (s.I, s.D), resid), (h + "mlp.c_proj.bias", (s.D,), z)]
        t += [(p + "ln_f.weight", (s.D,), o), (p + "ln_f.bias", (s.D,), z)]
        if not s.tie:
            t.append(("lm_head.weight", (s.V, s.D), n))
    elif s.family in LLAMA_LIKE:
        t.append((p + "embed_tokens.weight", (s.V, s.D), n))
        if s.P:
            t.append((p + "wpe.weight", (s.P, s.D), n))

        def linear(name, rows, cols, bias):
            return [(name + ".weight", (rows, cols), n)] + ([(name + ".bias", (rows,), z)] if bias else [])
        for i in range(s.n_layer):
            h = "%slayers.%d." % (p, i)
            t += [(h + "input_layernorm.weight", (s.D,), o)]
            t += linear(h + "self_attn.q_proj", s.H * s.E, s.D, s.qkv_bias)
            t += linear(h + "self_attn.k_proj", s.K * s.E, s.D, s.qkv_bias)
            t += linear(h + "self_attn.v_proj", s.K * s.E, s.D, s.qkv_bias)
            t += linear(h + "self_attn.o_proj", s.D, s.H * s.E, s.o_bias)
            t += [(h + "post_attention_layernorm.weight", (s.D,), o)]
            t += linear(h + "mlp.gate_proj", s.I, s.D, s.mlp_bias)
            t += linear(h + "mlp.up_proj", s.I, s.D, s.mlp_bias)
            t += linear(h + "mlp.down_proj", s.D, s.I, s.mlp_bias)
        t.append((p + "norm.weight", (s.D,), o))
        if not s.tie:
            t.append(("lm_head.weight", (s.V, s.D), n))
    else:  # gptj
        t.append((p + "wte.weight", (s.V, s.D), n))
        if s.P:
            t.append((p + "wpe.weight", (s.P, s.D), n))
        for i in range(s.n_layer):
            h = "%sh.%d." % (p, i)
            t += [(h + "ln_1.weight", (s.D,), o), (h + "ln_1.bias", (s.D,), z),
                  (h + "attn.q_proj.weight", (s.D, s.D), n), (h + "attn.k_proj.weight", (s.D, s.D), n),
                  (h + "attn.v_proj.weight", (s.D, s.D), n), (h + "attn.out_proj.weight", (s.D, s.D), n),
                  (h + "mlp.fc_in.weight", (s.I, s.D), n), (h + "mlp.fc_in.bias", (s.I,), z),
                  (h + "mlp.fc_out.weight", (s.D, s.I), n), (h + "mlp.fc_out.bias", (s.D,), z)]
        t += [(p + "ln_f.weight", (s.D,), o), (p + "ln_f.bias", (s.D,), z)]
        if s.tie:
            t.append(("lm_head.bias", (s.V,), z))
        else:
            t += [("lm_head.weight", (s.V, s.D), n), ("lm_head.bias", (s.V,), z)]
    return t


def init_params(s, prefix, seed, dtype=torch.float64):
    """HF-style init: normal(0, initializer_range) for Linear/Conv1D/Embedding weights, zero
    biases, norm weights one (LayerNorm bias zero); gpt2 c_proj weights std/sqrt(2 n_layer).
    Draws in table order from one torch.Generator seeded with `seed`."""
    g = torch.Generator().manual_seed(int(seed))
    out = OrderedDict()
    for name, shape, init in param_table(s, prefix):
        if init[0] == "normal":
            out[name] = torch.randn(shape, generator=g, dtype=torch.float64).mul_(init[1]).to(dtype)
        elif init[0] == "zeros":
            out[name] = torch.zeros(shape, dtype=dtype)
        else:
            out[name] = torch.ones(shape, dtype=dtype)
    return out


def is_norm_or_bias(name):
    return name.endswith(".bias") or "ln_" in name or "layernorm" in name or name.endswith("norm.weight")


def perturb_norms_and_biases(params, seed, std=0.1):
    """Add N(0, std) noise to every norm weight/bias and every linear bias, in place."""
    g = torch.Generator().manual_seed(int(seed))
    for name, t in params.items():
        if is_norm_or_bias(name):
            t.add_(torch.randn(t.shape, generator=g, dtype=torch.float64).mul_(std).to(t.dtype))
    return params


# ----------------------------------------------------------------------------------------------
# Building blocks. Each takes plain tensors; all work in the dtype of their inputs.

def gelu_tanh(x):  # HF "gelu_new": 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x * x * x)))


ACT = {
    "gelu_new": gelu_tanh, "gelu_pytorch_tanh": gelu_tanh, "gelu_fast": gelu_tanh,
    "gelu": lambda x: F.gelu(x), "relu": F.relu, "silu": F.silu, "swish": F.silu, "tanh": torch.tanh,
}


def _layer_norm(x, w, b, eps):  # x [..., D]; biased variance, as nn.LayerNorm
    mu = x.mean(-1, keepdim=True)
    var = (x - mu).pow(2).mean(-1, keepdim=True)
    return (x - mu) * torch.rsqrt(var + eps) * w + b


def rms_norm(x, w, eps):  # x [..., D]
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w


def rope_tables(L, R, theta, dtype):
    """cos, sin [L, R/2] for positions 0..L-1; inv_freq = theta^(-(0,2,..,R-2)/R)."""
    inv_freq = 1.0 / (theta ** (torch.arange(0, R, 2, dtype=torch.float64) / R))
    ang = torch.arange(L, dtype=torch.float64)[:, None] * inv_freq[None, :]
    return ang.cos().to(dtype), ang.sin().to(dtype)


def apply_rope(x, cos, sin, layout):
    """x [B, heads, L, E]; rotates the first R = 2*cos.shape[-1] dims, passes the rest."""
    R = 2 * cos.shape[-1]
    xr, xp = x[..., :R], x[..., R:]
    if layout == "rotate_half":
        c = torch.cat((cos, cos), -1)  # [L, R]
        s_ = torch.cat((sin, sin), -1)
        x1, x2 = xr[..., : R // 2], xr[..., R // 2:]
        rot = torch.cat((-x2, x1), -1)
    else:  # interleaved pairs (x[2i], x[2i+1]); cos/sin repeated interleaved
        c = torch.repeat_interleave(cos, 2, -1)
        s_ = torch.repeat_interleave(sin, 2, -1)
        x1, x2 = xr[..., 0::2], xr[..., 1::2]
        rot = torch.stack((-x2, x1), -1).flatten(-2)
    return torch.cat((xr * c + rot * s_, xp), -1)


def alibi_slopes(H):
    return [2.0 ** (-8.0 * h / H) for h in range(1, H + 1)]


def causal_attention(s, q, k, v):
    """q [B,H,L,E], k/v [B,K,L,E] (rope already applied) -> [B,L,H*E]."""
    B, H, L, E = q.shape
    if s.K != s.H:  # GQA: kv head g serves query heads g*(H/K) .. (g+1)*(H/K)-1
        k = k.repeat_interleave(H // s.K, dim=1)
        v = v.repeat_interleave(H // s.K, dim=1)
    scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(E)  # [B,H,L,L]
    i = torch.arange(L)
    dist = (i[:, None] - i[None, :]).to(q.dtype)  # i - j
    if s.pe == "alibi":
        m = torch.tensor(alibi_slopes(H), dtype=q.dtype)
        scores = scores - m[:, None, None] * dist
    hidden = i[None, :] > i[:, None]  # j > i: the future
    if s.window:  # mistral: j <= i - W is out of the window
        hidden = hidden | (i[None, :] <= i[:, None] - s.window)
    scores = scores.masked_fill(hidden, float("-inf"))
    a = torch.softmax(scores, dim=-1)
    return torch.matmul(a, v).transpose(1, 2).reshape(B, L, H * E)


def split_heads(x, n, E):  # [B,L,n*E] -> [B,n,L,E]
    B, L, _ = x.shape
    return x.view(B, L, n, E).transpose(1, 2)


def _rope(s, q, k, L):
    if s.pe != "rope":
        return q, k
    cos, sin = rope_tables(L, s.R, s.theta, q.dtype)
    return apply_rope(q, cos, sin, s.rope_layout), apply_rope(k, cos, sin, s.rope_layout)


# ----------------------------------------------------------------------------------------------
# Forward

def forward(s, params, prefix, input_ids=None, inputs_embeds=None, hidden_only=False, fused=False):
    """Returns (final normed hidden [B,L,D], logits [B,L,V] or None).
    fused=True swaps in torch's fused F.layer_norm and F.gelu(approximate="tanh") (same math,
    different float32 rounding; used by the benchmark peer, never for golden values)."""
    W = lambda n: params[prefix + n]
    act = ACT[s.act]
    layer_norm = _layer_norm
    if fused:
        layer_norm = lambda x, w, b, eps: F.layer_norm(x, (x.shape[-1],), w, b, eps)
        if act is gelu_tanh:
            act = lambda x: F.gelu(x, approximate="tanh")
    tok_name = "embed_tokens.weight" if s.family in LLAMA_LIKE else "wte.weight"
    Wb = lambda n: params.get(prefix + n)  # a bias the family may not have
    if (input_ids is None) == (inputs_embeds is None):
        raise ValueError("give exactly one of input_ids, inputs_embeds")
    if inputs_embeds is None:
        inputs_embeds = W(tok_name)[input_ids]
    B, L, D = inputs_embeds.shape
    h = inputs_embeds
    if s.pe == "learned":
        if L > s.P:
            raise ValueError("sequence length %d exceeds the position table (%d rows)" % (L, s.P))
        h = h + W("wpe.weight")[:L][None]
    for li in range(s.n_layer):
        if s.family == "gpt2":
            p = "h.%d." % li
            x = layer_norm(h, W(p + "ln_1.weight"), W(p + "ln_1.bias"), s.eps)
            qkv = torch.addmm(W(p + "attn.c_attn.bias"), x.reshape(-1, D), W(p + "attn.c_attn.weight")).view(B, L, 3 * D)
            q, k, v = (split_heads(t, s.H, s.E) for t in qkv.split(D, dim=-1))
            q, k = _rope(s, q, k, L)
            a = causal_attention(s, q, k, v)
            h = h + (a @ W(p + "attn.c_proj.weight") + W(p + "attn.c_proj.bias"))
            x = layer_norm(h, W(p + "ln_2.weight"), W(p + "ln_2.bias"), s.eps)
            m = act(x @ W(p + "mlp.c_fc.weight") + W(p + "mlp.c_fc.bias"))
            h = h + (m @ W(p + "mlp.c_proj.weight") + W(p + "mlp.c_proj.bias"))
        elif s.family in LLAMA_LIKE:
            p = "layers.%d." % li
            lin = lambda t, name: F.linear(t, W(p + name + ".weight"), Wb(p + name + ".bias"))
            x = rms_norm(h, W(p + "input_layernorm.weight"), s.eps)
            q = split_heads(lin(x, "self_attn.q_proj"), s.H, s.E)
            k = split_heads(lin(x, "self_attn.k_proj"), s.K, s.E)
            v = split_heads(lin(x, "self_attn.v_proj"), s.K, s.E)
            q, k = _rope(s, q, k, L)
            a = causal_attention(s, q, k, v)
            h = h + lin(a, "self_attn.o_proj")
            x = rms_norm(h, W(p + "post_attention_layernorm.weight"), s.eps)
            m = act(lin(x, "mlp.gate_proj")) * lin(x, "mlp.up_proj")
            h = h + lin(m, "mlp.down_proj")
        else:  # gptj: parallel block, one LayerNorm feeds both branches
            p = "h.%d." % li
            x = layer_norm(h, W(p + "ln_1.weight"), W(p + "ln_1.bias"), s.eps)
            q = split_heads(F.linear(x, W(p + "attn.q_proj.weight")), s.H, s.E)
            k = split_heads(F.linear(x, W(p + "attn.k_proj.weight")), s.H, s.E)
            v = split_heads(F.linear(x, W(p + "attn.v_proj.weight")), s.H, s.E)
            q, k = _rope(s, q, k, L)
            a = F.linear(causal_attention(s, q, k, v), W(p + "attn.out_proj.weight"))
            m = F.linear(act(F.linear(x, W(p + "mlp.fc_in.weight"), W(p + "mlp.fc_in.bias"))),
                         W(p + "mlp.fc_out.weight"), W(p + "mlp.fc_out.bias"))
            h = h + a + m
    if s.family in LLAMA_LIKE:
        h = rms_norm(h, W("norm.weight"), s.eps)
    else:
        h = layer_norm(h, W("ln_f.weight"), W("ln_f.bias"), s.eps)
    if hidden_only:
        return h, None
    head = W(tok_name) if s.tie else params["lm_head.weight"]
    logits = F.linear(h, head, params.get("lm_head.bias"))
    return h, logits


class Model:
    """A config, its resolved Spec and its tensors under Hugging Face names."""

    def __init__(self, config, params, prefix, fused=False):
        self.config = config
        self.spec = resolve_config(config)
        self.params = params
        self.prefix = prefix
        self.fused = fused

    def __call__(self, input_ids=None, inputs_embeds=None, hidden_only=False):
        return forward(self.spec, self.params, self.prefix, input_ids, inputs_embeds, hidden_only, self.fused)

    def token_embeddings(self, input_ids):
        name = "embed_tokens.weight" if self.spec.family in LLAMA_LIKE else "wte.weight"
        return self.params[self.prefix + name][input_ids]


def build_model(config, seed, dtype=torch.float64, prefix=None):
    """Model at Hugging Face init drawn from torch seed `seed` (see init_params)."""
    s = resolve_config(config)
    prefix = default_prefix(s.family) if prefix is None else prefix
    return Model(config, init_params(s, prefix, seed, dtype), prefix)


# ----------------------------------------------------------------------------------------------
# safetensors (written by hand: 8-byte LE header size, JSON header, raw little-endian data)

_ST_DTYPES = {torch.float32: ("F32", "<f4"), torch.float64: ("F64", "<f8"), torch.int64: ("I64", "<i8")}


def save_safetensors(path, tensors, metadata=None):
    header, blobs, off = {}, [], 0
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    for name, t in tensors.items():
        t = t.detach().contiguous().cpu()
        code, np_dtype = _ST_DTYPES[t.dtype]
        data = t.numpy().astype(np_dtype, copy=False).tobytes()
        header[name] = {"dtype": code, "shape": list(t.shape), "data_offsets": [off, off + len(data)]}
        blobs.append(data)
        off += len(data)
    hb = json.dumps(header, separators=(",", ":")).encode("utf-8")
    hb += b" " * ((8 - len(hb) % 8) % 8)  # pad so the data starts 8-byte aligned
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(hb)))
        f.write(hb)
        for b in blobs:
            f.write(b)
    os.replace(tmp, path)


def load_safetensors(path):
    import numpy as np
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n].decode("utf-8"))
    base = 8 + n
    out = OrderedDict()
    codes = {"F32": np.float32, "F64": np.float64, "I64": np.int64}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        b, e = info["data_offsets"]
        arr = np.frombuffer(raw[base + b: base + e], dtype=np.dtype(codes[info["dtype"]]).newbyteorder("<"))
        out[name] = torch.from_numpy(arr.copy()).reshape(info["shape"])
    return out


# ----------------------------------------------------------------------------------------------
# Jacobian profile

def jacobian_profile(model, x, q):
    """x [L, D] float64 input embeddings of one sequence; q 0-based query index.
    Returns [L] list: ||d y_q / d x_j||_F with y_q the final normed hidden at q."""
    f = lambda xx: model(inputs_embeds=xx[None], hidden_only=True)[0][0, q]
    J = torch.autograd.functional.jacobian(f, x)  # [D, L, D]
    return J.pow(2).sum(dim=(0, 2)).sqrt().tolist()


# ----------------------------------------------------------------------------------------------
# Golden cases

BASE = dict(V=37, D=16, n_layer=2, H=4, P=16)


def case_configs():
    V, D, NL, H, P = BASE["V"], BASE["D"], BASE["n_layer"], BASE["H"], BASE["P"]
    gpt2 = dict(model_type="gpt2", vocab_size=V, n_positions=P, n_embd=D, n_layer=NL, n_head=H,
                n_inner=None, activation_function="gelu_new", layer_norm_epsilon=1e-5,
                initializer_range=0.02, tie_word_embeddings=True, architectures=["GPT2LMHeadModel"])
    qwen2 = dict(model_type="qwen2", vocab_size=V, hidden_size=D, intermediate_size=24,
                 num_hidden_layers=NL, num_attention_heads=H, num_key_value_heads=2, hidden_act="silu",
                 max_position_embeddings=P, rms_norm_eps=1e-6, rope_theta=1e6, initializer_range=0.02,
                 tie_word_embeddings=True, use_sliding_window=False, architectures=["Qwen2ForCausalLM"])
    gptj = dict(model_type="gptj", vocab_size=V, n_positions=P, n_embd=D, n_layer=NL, n_head=H,
                rotary_dim=2, n_inner=24, activation_function="gelu_new", layer_norm_epsilon=1e-5,
                initializer_range=0.02, tie_word_embeddings=False, architectures=["GPTJForCausalLM"])
    # (name, config, tensor-name prefix). The default-encoding cases carry no position_encoding
    # field (plain HF config.json). gpt2_alibi is written with bare GPT2Model names, as the
    # openai-community/gpt2 hub checkpoint stores them; gpt2 uses GPT2LMHeadModel's "transformer.".
    # Llama as LlamaForCausalLM saves it (untied head, plain RoPE at theta 1e4, no biases), and
    # Mistral with a 3-key window, so that the window cuts into the 7-token inputs.
    llama = dict(model_type="llama", vocab_size=V, hidden_size=D, intermediate_size=24,
                 num_hidden_layers=NL, num_attention_heads=H, num_key_value_heads=2, head_dim=D // H,
                 hidden_act="silu", max_position_embeddings=P, rms_norm_eps=1e-5, rope_theta=10000.0,
                 rope_scaling=None, attention_bias=False, mlp_bias=False, pretraining_tp=1,
                 initializer_range=0.02, tie_word_embeddings=False, architectures=["LlamaForCausalLM"])
    mistral = dict(model_type="mistral", vocab_size=V, hidden_size=D, intermediate_size=24,
                   num_hidden_layers=NL, num_attention_heads=H, num_key_value_heads=2, hidden_act="silu",
                   max_position_embeddings=P, rms_norm_eps=1e-5, rope_theta=1e6, sliding_window=3,
                   initializer_range=0.02, tie_word_embeddings=False, architectures=["MistralForCausalLM"])
    return [
        ("gpt2", dict(gpt2), "transformer."),
        ("gpt2_alibi", dict(gpt2, n_inner=24, position_encoding="alibi"), ""),
        ("qwen2", dict(qwen2), "model."),
        ("qwen2_none", dict(qwen2, position_encoding="none", tie_word_embeddings=False), "model."),
        ("gptj", dict(gptj), "transformer."),
        ("gptj_learned", dict(gptj, position_encoding="learned"), "transformer."),
        ("llama", dict(llama), "model."),
        ("mistral", dict(mistral), "model."),
    ]


def write_case(out_dir, name, config, prefix, seed, batch=2, length=7):
    s = resolve_config(config)
    d = os.path.join(out_dir, name)
    os.makedirs(d, exist_ok=True)
    # Weights: HF init, then N(0, 0.1) on norms and biases, then rounded to float32 so the
    # float64 golden computation below uses exactly the stored values.
    params = init_params(s, prefix, seed)
    perturb_norms_and_biases(params, seed + 1)
    params32 = OrderedDict((k, v.to(torch.float32)) for k, v in params.items())
    params = OrderedDict((k, v.to(torch.float64).requires_grad_(True)) for k, v in params32.items())
    model = Model(config, params, prefix)

    g = torch.Generator().manual_seed(seed + 2)
    ids = torch.randint(0, s.V, (batch, length), generator=g)
    R = torch.randn(batch, length, s.V, generator=g, dtype=torch.float64).to(torch.float32).to(torch.float64)

    emb = model.token_embeddings(ids)  # [B,L,D], differentiable w.r.t. the token table
    emb.retain_grad()
    hidden, logits = model(inputs_embeds=emb)
    loss = (logits * R).sum()
    loss.backward()

    expected = OrderedDict()
    expected["hidden"] = hidden.detach()
    expected["logits"] = logits.detach()
    expected["loss"] = loss.detach().reshape(())
    expected["R"] = R
    expected["grad.inputs_embeds"] = emb.grad
    for k, v in params.items():
        expected["grad." + k] = v.grad
    expected = OrderedDict((k, v.to(torch.float32)) for k, v in expected.items())

    # Jacobian profiles of batch item 0 (float64, no grad bookkeeping on the weights)
    det = Model(config, OrderedDict((k, v.detach()) for k, v in params.items()), prefix)
    x0 = det.token_embeddings(ids[0]).detach()
    jac = {
        "indexing": "positions j and q are 1-based; profile[j-1] = ||d y_q / d x_j||_F",
        "input": "x = token embeddings of input_ids[0] (inputs_embeds), float64 forward",
        "q_last": length, "profile_last": jacobian_profile(det, x0, length - 1),
        "q4": 4, "profile_q4": jacobian_profile(det, x0, 3),
    }

    cfg_out = OrderedDict(sorted(config.items()))
    with open(os.path.join(d, "config.json"), "w") as f:
        json.dump(cfg_out, f, indent=2)
        f.write("\n")
    save_safetensors(os.path.join(d, "model.safetensors"), params32, {"format": "pt"})
    with open(os.path.join(d, "input.json"), "w") as f:
        json.dump({"input_ids": ids.tolist()}, f)
        f.write("\n")
    save_safetensors(os.path.join(d, "expected.safetensors"), expected,
                     {"generator": "tests/golden/model_reference.py", "seed": seed, "compute": "float64"})
    with open(os.path.join(d, "jacobian.json"), "w") as f:
        json.dump(jac, f, indent=1)
        f.write("\n")
    return d, expected, jac


def self_check(d, config, prefix):
    """Reload the written files and recompute: weights round-trip, hidden/logits agree."""
    params = load_safetensors(os.path.join(d, "model.safetensors"))
    exp = load_safetensors(os.path.join(d, "expected.safetensors"))
    ids = torch.tensor(json.load(open(os.path.join(d, "input.json")))["input_ids"])
    m = Model(config, OrderedDict((k, v.double()) for k, v in params.items()), prefix)
    h, lg = m(input_ids=ids)
    err = max((h.float() - exp["hidden"]).abs().max().item(), (lg.float() - exp["logits"]).abs().max().item())
    if err > 1e-6:
        raise AssertionError("%s: reload mismatch %.3g" % (d, err))
    # float32 forward of the same weights stays within the 1e-5 budget the C++ side must meet
    m32 = Model(config, OrderedDict((k, v.float()) for k, v in params.items()), prefix)
    h32, lg32 = m32(input_ids=ids)
    return max((h32 - exp["hidden"]).abs().max().item(), (lg32 - exp["logits"]).abs().max().item())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "models"))
    ap.add_argument("--seed", type=int, default=20240601)
    a = ap.parse_args()
    torch.set_num_threads(1)  # deterministic reductions
    os.makedirs(a.out, exist_ok=True)
    for idx, (name, config, prefix) in enumerate(case_configs()):
        d, exp, jac = write_case(a.out, name, config, prefix, a.seed + 100 * idx)
        f32err = self_check(d, config, prefix)
        if f32err > 1e-5:
            raise AssertionError("%s: float32 forward is %.3g from the golden, over the 1e-5 budget" % (name, f32err))
        size = sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d))
        print("%-13s logits[0,0,:3]=%s loss=%.9g f32-vs-f64=%.2e size=%dB profile_last=%s" % (
            name, ["%.7f" % v for v in exp["logits"][0, 0, :3].tolist()], exp["loss"].item(), f32err, size,
            ["%.3g" % v for v in jac["profile_last"]]))


if __name__ == "__main__":
    main()
