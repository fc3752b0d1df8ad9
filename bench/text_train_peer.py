#!/usr/bin/python3
"""PyTorch peer for the text training-step benchmark: one next-token training step of a GPT-2 model.

The model is written the way a PyTorch user would write Hugging Face's GPT-2 at posbias's text
preset (6 layers, d 256, 4 heads, MLP 1024, vocabulary 4096, L 256, batch 32): learned positions,
pre-LN LayerNorm, fused qkv with bias, GELU (tanh), tied LM head, dropout --dropout (posbias's
text preset has 0, which train_bench passes; at 0 torch's dropout returns its input) on the
embeddings, the attention pattern and both residual branches, GPT-2's init (residual projections
/ sqrt(2 L)).
A step: forward, cross-entropy at every position, backward, clip_grad_norm_(1.0), torch.optim.AdamW
with a LambdaLR warmup. Prints one JSON line: seconds per step (best of --repeats timed blocks).
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


class Block(nn.Module):
    def __init__(self, d, heads, mlp, p):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.fc = nn.Linear(d, mlp)
        self.proj = nn.Linear(mlp, d)
        self.heads, self.drop, self.attn_drop = heads, nn.Dropout(p), nn.Dropout(p)

    def forward(self, x, mask):
        B, L, D = x.shape
        H, E = self.heads, D // self.heads
        q, k, v = self.qkv(self.ln1(x)).view(B, L, 3, H, E).permute(2, 0, 3, 1, 4)
        scores = (q @ k.transpose(-1, -2)) / math.sqrt(E) + mask
        z = self.attn_drop(scores.softmax(-1)) @ v
        x = x + self.drop(self.out(z.transpose(1, 2).reshape(B, L, D)))
        return x + self.drop(self.proj(F.gelu(self.fc(self.ln2(x)), approximate="tanh")))


class Gpt2(nn.Module):
    def __init__(self, vocab, length, d, layers, heads, mlp, p=0.1):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Parameter(torch.zeros(length, d))
        self.blocks = nn.ModuleList([Block(d, heads, mlp, p) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(d)
        self.drop = nn.Dropout(p)
        for name, mod in self.named_modules():
            if isinstance(mod, (nn.Linear, nn.Embedding)):
                std = 0.02 / math.sqrt(2 * layers) if name.endswith(("out", "proj")) else 0.02
                nn.init.normal_(mod.weight, std=std)
            if isinstance(mod, nn.Linear) and mod.bias is not None:
                nn.init.zeros_(mod.bias)
        nn.init.normal_(self.wpe, std=0.02)

    def forward(self, ids):
        L = ids.shape[1]
        mask = torch.full((L, L), float("-inf")).triu(1)
        x = self.drop(self.wte(ids) + self.wpe[:L])
        for b in self.blocks:
            x = b(x, mask)
        return self.ln_f(x) @ self.wte.weight.t()  # tied head, every position


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vocab", type=int, default=4096)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--length", type=int, default=256)
    ap.add_argument("--d-model", type=int, default=256)
    ap.add_argument("--layers", type=int, default=6)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--mlp", type=int, default=1024)
    ap.add_argument("--dropout", type=float, default=0.1)
    ap.add_argument("--steps", type=int, default=5, help="steps per timed block")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--bf16", action="store_true",
                    help="forward under CPU autocast in bfloat16 (fp32 weights and loss)")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.set_flush_denormal(True)  # as posbias's configure_torch
    torch.manual_seed(0)
    model = Gpt2(args.vocab, args.length, args.d_model, args.layers, args.heads, args.mlp,
                 args.dropout)
    decay = [p for p in model.parameters() if p.dim() >= 2]
    other = [p for p in model.parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01},
                             {"params": other, "weight_decay": 0.0}], lr=1e-3)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 200))
    ids = torch.randint(0, args.vocab, (args.batch, args.length + 1))

    def step():
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=args.bf16):
            logits = model(ids[:, :-1])
        loss = F.cross_entropy(logits.float().reshape(-1, args.vocab), ids[:, 1:].reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        return loss

    for _ in range(2):
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
