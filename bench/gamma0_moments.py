#!/usr/bin/env python
"""The γ = 0 moment form, the trainer's default (`AttentionHead.gamma0_path = 'moments'`, `_moments`): at γ = 0 a
head's mixing matrix A = softmax(s·pos W posᵀ) does not depend on the input, so a member's minibatch loss
(1/(B L d_v)) Σ_b ‖A X_b V − Y_b‖² needs only the batch's second moments, S = Σ_b X_b ⊗ X_b and C = Σ_b X_b ⊗ Y_b
(shared by every member): Σ_b ‖A X_b V‖² = ⟨AᵀA ⊗ V Vᵀ, S⟩ and Σ_b ⟨A X_b V, Y_b⟩ = ⟨A ⊗ V, C⟩. It is the same function;
the sum cancels near a perfect fit, so it is taken in float64. One training step (loss and backward) at the quick
scale's flagged point (softmax, β = 16, γ = 0; 618 members: 3 teachers × sizes 2, 3 × 103 further seeds; batch 64,
L = 16, d = 8): the mixing path (`SharedAttention`), A computed once with the per-sequence product kept, and the moment
form (`gamma0_path = 'moments'`); with the loss and gradient differences from the mixing path.
BENCHMARKS.md, section "The ensemble trainer".

    python bench/gamma0_moments.py [--threads 2] [--steps 20]
"""
import argparse, math, sys, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import torch
from entropic_bound.models import AttentionHead

p = argparse.ArgumentParser(); p.add_argument('--threads', type=int, default=2); p.add_argument('--steps', type=int, default=20)
a = p.parse_args(); torch.set_num_threads(a.threads); torch.manual_seed(0)
L, d, E, B = 16, 8, 618, 64
pos = torch.randn(L, d)
m = AttentionHead(d, [2, 3] * (E // 2), kind='softmax', beta=16., gamma=0, pos=pos, seeds=list(range(E)))
X, Y = torch.randn(B, L, d), torch.randn(B, L, d)

def step(loss):
    m.zero_grad(); l = loss(); l.sum().backward()
    return l.detach().float(), m.W_Q.grad.clone(), m.W_V.grad.clone()

def path(p):
    def f(): m.gamma0_path = p; return m.loss(X, Y)
    return f
shared = path('mixing')

def mixing():
    W = m.kernel() * (m.beta / math.sqrt(d))
    return torch.softmax(pos @ W @ pos.T, -1)                                       # (E, L, L), every sequence's

def once():
    R = mixing()[:, None] @ torch.einsum('blm,emv->eblv', X, m.W_V) - Y
    return (R * R).sum((1, 2, 3)) / (B * L * d)

ref = step(shared)
print('| path | ms per step | loss: max rel. difference | ∂W_Q, ∂W_V: rel. difference |\n|---|---|---|---|')
paths = (('mixing (SharedAttention)', shared), ('A once, per-sequence product', once),
         ('moments, float64 (gamma0_path = moments)', path('moments')))
for name, f in paths:
    r = step(f)
    t = time.perf_counter()
    for _ in range(a.steps): step(f)
    ms = (time.perf_counter() - t) / a.steps * 1e3
    dl = ((r[0] - ref[0]).abs() / ref[0]).max().item()
    dg = [((x - y).norm() / y.norm()).item() for x, y in zip(r[1:], ref[1:])]
    print(f"| {name} | {ms:.1f} | {dl:.0e} | {dg[0]:.0e}, {dg[1]:.0e} |")
