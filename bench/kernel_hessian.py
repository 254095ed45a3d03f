#!/usr/bin/env python
"""`newton_polish`'s exact Hessian: autodiff (`vmap(hessian(f))` in chunks of `HESSIAN_CHUNK`) against the closed form
(`kernel_hessian`): seconds per call, the largest difference relative to each run's largest entry, at the quick and
paper sizes; then the quick scale's hardest k1 cell (softmax, β = 4, teacher 2) end to end with each, and what moved.
BENCHMARKS.md, section "Newton's Hessian".

    python bench/kernel_hessian.py [--threads 2] [--repeats 3] [--no-cell]
"""
import argparse, math, statistics, sys, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import torch
from torch.func import vmap, hessian
import entropic_bound.theorems.ladder_k1 as k1
from entropic_bound.theorems.ladder_rungs import rung_task

p = argparse.ArgumentParser(); p.add_argument('--threads', type=int, default=2); p.add_argument('--repeats', type=int, default=3)
p.add_argument('--no-cell', action='store_true'); a = p.parse_args(); torch.set_num_threads(a.threads)

def timed(fn, x):
    ts = []
    for _ in range(a.repeats):
        t = time.perf_counter(); out = fn(x); ts.append(time.perf_counter() - t)
    return statistics.median(ts), out

print('| size | β | runs | autodiff, chunks of 64 (s) | closed form (s) | × | max difference / largest entry |\n|---|---|---|---|---|---|---|')
for size, L, d, runs_list in (('quick', 16, 8, (32, 512, 2048)), ('paper', 32, 16, (32, 512))):
    for beta in (4, 16):
        T = rung_task('softmax', L, d, 3, 0, beta, 2); f = k1.kernel_objective(T, 2)
        for runs in runs_list:
            x = torch.randn(runs, 4 * d, generator=torch.Generator().manual_seed(0), dtype=torch.float64) / math.sqrt(d)
            ta, Ha = timed(vmap(hessian(f), chunk_size=k1.HESSIAN_CHUNK), x)
            tk, Hk = timed(k1.kernel_hessian(T, 2), x)
            err = ((Ha - Hk).abs().amax((1, 2)) / Ha.abs().amax((1, 2))).max().item()
            print(f"| {size} | {beta} | {runs} | {ta:.3f} | {tk:.3f} | {ta / tk:.0f} | {err:.0e} |", flush=True)
if a.no_cell: sys.exit()

cfg = [c for c in k1.infimum_configs('quick') if c['beta'] == 4 and c['teacher_seed'] == 2][0]
closed, out = k1.kernel_hessian, {}
for name, kh in (('autodiff', lambda T, r: None), ('closed form', closed)):
    k1.kernel_hessian = kh                              # None: `newton_polish` falls back to autodiff's Hessian
    t = time.perf_counter(); out[name] = k1.infimum_experiment(cfg); s = time.perf_counter() - t
    print(f"hardest cell with the {name} Hessian: {s:.0f} s; trace {out[name]['trace']}", flush=True)
k1.kernel_hessian = closed
A, B = out['autodiff'], out['closed form']
best = lambda m: min(m['value'])
print(f"best value {best(A):.15e} vs {best(B):.15e}; hits {k1.hits(A['value'])} vs {k1.hits(B['value'])}; "
      f"largest change of a run's value {max(abs(x - y) / x for x, y in zip(A['value'], B['value'])):.1e}")
