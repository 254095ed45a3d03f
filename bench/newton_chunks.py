#!/usr/bin/env python
"""`newton_polish`'s exact Hessian, one batched call against chunks of runs (`HESSIAN_CHUNK`): seconds per call and the
largest difference (0: the same numbers, bit for bit), at the quick scale's hardest k1 cell (softmax, β = 4, teacher 2).
BENCHMARKS.md, section "Newton's Hessian in chunks".

    python bench/newton_chunks.py [--threads 2] [--repeats 3]
"""
import argparse, math, statistics, sys, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import torch
from torch.func import vmap, hessian
from entropic_bound.theorems.ladder_k1 import kernel_objective, infimum_configs
from entropic_bound.theorems.ladder_rungs import rung_task

p = argparse.ArgumentParser(); p.add_argument('--threads', type=int, default=2); p.add_argument('--repeats', type=int, default=3)
a = p.parse_args(); torch.set_num_threads(a.threads)
c = [c for c in infimum_configs('quick') if c['beta'] == 4 and c['teacher_seed'] == 2][0]
f = kernel_objective(rung_task(c['kind'], c['L'], c['d'], c['k'], c['gamma'], c['beta'], c['teacher_seed']), c['k'] - 1)
print('| runs | chunk | s per call (median) | max abs. difference from one call |\n|---|---|---|---|')
for runs in (32, 512, 2048):
    x = torch.randn(runs, 2 * c['d'] * (c['k'] - 1), generator=torch.Generator().manual_seed(0), dtype=torch.float64)
    x /= math.sqrt(c['d'])
    H0 = vmap(hessian(f))(x)
    for chunk in (None, 16, 32, 64, 128):
        ts = []
        for _ in range(a.repeats):
            t = time.perf_counter(); H = vmap(hessian(f), chunk_size=chunk)(x); ts.append(time.perf_counter() - t)
        print(f"| {runs} | {chunk or 'one call'} | {statistics.median(ts):.3f} | {(H - H0).abs().max().item():.0e} |")
