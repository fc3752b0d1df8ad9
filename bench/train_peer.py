#!/usr/bin/python3
"""PyTorch peer for the training-step benchmark: one answer-only training step of the gptj-hop model.

The model is written the way a PyTorch user would write Hugging Face's GPT-J at this shape: separate
q/k/v projections without bias, interleaved partial rotary on the first rotary_dim dims of each head,
parallel attention + MLP (GELU tanh) from one LayerNorm, untied LM head with bias, dropout 0.1.
A step: forward, cross-entropy on the last position's logits, backward, clip_grad_norm_(1.0),
torch.optim.AdamW (foreach when available) with a LambdaLR warmup/decay schedule.
Prints one JSON line: seconds per step (best of --repeats timed blocks) and the model's FLOPs.
Uses Debian's torch (python3-torch 1.13) as /usr/bin/python3.
"""
import argparse
import json
import math
import os
import time

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # see birth_peer.py
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402


def rotate_every_two(x):
    x1, x2 = x[..., ::2], x[..., 1::2]
    return torch.stack((-x2, x1), dim=-1).flatten(-2)


class Block(nn.Module):
    def __init__(self, d, heads, mlp, rotary, p):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.q = nn.Linear(d, d, bias=False)
        self.k = nn.Linear(d, d, bias=False)
        self.v = nn.Linear(d, d, bias=False)
        self.out = nn.Linear(d, d, bias=False)
        self.fc_in = nn.Linear(d, mlp)
        self.fc_out = nn.Linear(mlp, d)
        self.heads, self.rotary, self.drop = heads, rotary, nn.Dropout(p)
        self.attn_drop = nn.Dropout(p)

    def rope(self, x, cos, sin):  # x [B, H, L, E]
        r = self.rotary
        xr = x[..., :r] * cos + rotate_every_two(x[..., :r]) * sin
        return torch.cat([xr, x[..., r:]], dim=-1)

    def forward(self, x, cos, sin, mask):
        B, L, D = x.shape
        H, E = self.heads, D // self.heads
        h = self.ln(x)
        q = self.q(h).view(B, L, H, E).transpose(1, 2)
        k = self.k(h).view(B, L, H, E).transpose(1, 2)
        v = self.v(h).view(B, L, H, E).transpose(1, 2)
        q, k = self.rope(q, cos, sin), self.rope(k, cos, sin)
        scores = (q @ k.transpose(-1, -2)) / math.sqrt(E) + mask
        z = self.attn_drop(scores.softmax(-1)) @ v
        a = self.out(z.transpose(1, 2).reshape(B, L, D))
        m = self.fc_out(F.gelu(self.fc_in(h), approximate="tanh"))
        return x + self.drop(a) + self.drop(m)


class HopModel(nn.Module):
    def __init__(self, vocab, d=128, layers=12, heads=1, mlp=512, rotary=16, p=0.1):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList([Block(d, heads, mlp, rotary, p) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab)
        self.drop, self.rotary = nn.Dropout(p), rotary
        for mod in self.modules():
            if isinstance(mod, (nn.Linear, nn.Embedding)):
                nn.init.normal_(mod.weight, std=0.02)
            if isinstance(mod, nn.Linear) and mod.bias is not None:
                nn.init.zeros_(mod.bias)

    def forward(self, ids):
        L = ids.shape[1]
        inv = 10000.0 ** (-torch.arange(0, self.rotary, 2, dtype=torch.float32) / self.rotary)
        ang = torch.outer(torch.arange(L, dtype=torch.float32), inv).repeat_interleave(2, dim=1)
        cos, sin = ang.cos(), ang.sin()
        mask = torch.full((L, L), float("-inf")).triu(1)
        x = self.drop(self.wte(ids))
        for b in self.blocks:
            x = b(x, cos, sin, mask)
        return self.head(self.ln_f(x[:, -1]))  # answer-only: the last position's logits


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vocab", type=int, default=145)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--length", type=int, default=17)
    ap.add_argument("--steps", type=int, default=20, help="steps per timed block")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.set_flush_denormal(True)  # as posbias's configure_torch
    torch.manual_seed(0)
    model = HopModel(args.vocab)
    decay = [p for p in model.parameters() if p.dim() >= 2]
    other = [p for p in model.parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01},
                             {"params": other, "weight_decay": 0.0}], lr=1e-3)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 500))
    ids = torch.randint(1, args.vocab, (args.batch, args.length))
    answers = torch.randint(1, args.vocab, (args.batch,))

    def step():
        loss = F.cross_entropy(model(ids), answers)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        return loss

    for _ in range(5):
        step()
    best = float("inf")
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        for _ in range(args.steps):
            step()
        best = min(best, (time.perf_counter() - t0) / args.steps)
    params = sum(p.numel() for p in model.parameters())
    print(json.dumps({"seconds_per_step": best, "params": params, "threads": torch.get_num_threads(),
                      "torch": torch.__version__}))


if __name__ == "__main__":
    main()
