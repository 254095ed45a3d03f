#!/usr/bin/env python
"""CPU benchmarks of entropic-bound: one command, a table printed and written to BENCHMARKS.md.

    python bench/run.py                 # trainer, spectra (a few minutes)
    python bench/run.py --notebooks     # also time every notebook under nbdev_test, one at a time

Timings are medians of repeated runs; ratios are against a per-model loop and against the dense fp32 matmul rate
measured in the same run with the same thread setting. Nothing here is a test: targets are read, not asserted.
"""
import argparse, math, os, platform, statistics, subprocess, sys, time
from pathlib import Path
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from entropic_bound.tasks import AttentionTask
from entropic_bound.models import AttentionHead
from entropic_bound.train import fit
from entropic_bound.spectra import energy_rank, singular_values

def median_time(fn, reps=5, warmup=1):
    for _ in range(warmup): fn()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter(); fn(); ts.append(time.perf_counter() - t0)
    return statistics.median(ts)

def matmul_rate(n=512, reps=20) -> float:
    "Dense fp32 GEMM rate (GFLOP/s) at the current thread setting."
    a, b = torch.randn(n, n), torch.randn(n, n)
    t = median_time(lambda: [a @ b for _ in range(reps)], reps=5)
    return 2 * n ** 3 * reps / t / 1e9

def head_flops(L, d, dv, ranks, B) -> float:
    "Forward + backward FLOPs of one training step of an ensemble of heads (backward counted as 2× forward)."
    fwd = sum(2 * B * L * d * (2 * r + dv) + 2 * B * L * L * (r + dv) + 5 * B * L * L for r in ranks)
    return 3 * fwd

def trainer_bench(batches, E=96, L=16, d=8, steps=30, loop_members=12):
    "Ensemble of softmax heads vs the same members trained one by one (same data, same results)."
    T = AttentionTask(L=L, d=d, spectrum=[1.5, 1., .5], kind='softmax', seed=0)
    ranks, seeds = [1 + i % 8 for i in range(E)], list(range(E))
    rows = []
    for B in batches:
        def ens():
            h = AttentionHead(d, ranks, seeds=seeds)
            fit(h, T, steps=steps, lr=1e-2, optimizer='adam', batch_size=B, seed=1, device='cpu', progress=False)
            return h
        def loop():
            return [fit(AttentionHead(d, [ranks[i]], seeds=[seeds[i]]), T, steps=steps, lr=1e-2, optimizer='adam', batch_size=B,
                        seed=1, device='cpu', progress=False) for i in range(loop_members)]
        t_ens = median_time(ens, reps=3)
        t_loop = median_time(loop, reps=3) * E / loop_members
        h = ens()                                                                  # same results, member by member
        err = 0.
        for i in range(3):
            one = AttentionHead(d, [ranks[i]], seeds=[seeds[i]])
            fit(one, T, steps=steps, lr=1e-2, optimizer='adam', batch_size=B, seed=1, device='cpu', progress=False)
            err = max(err, (one.kernel()[0] - h.kernel()[i]).abs().max().item())
        gf = head_flops(L, d, d, ranks, B) * steps / t_ens / 1e9
        rows.append(dict(batch=B, ensemble_s=t_ens, loop_s=t_loop, speedup=t_loop / t_ens, gflops=gf, max_diff=err))
    return rows

def spectra_bench(n=2000, m=64):
    M = torch.randn(n, m, m, dtype=torch.float64)
    t = median_time(lambda: energy_rank(M, .99), reps=5)
    t_sv = median_time(lambda: torch.linalg.svdvals(M), reps=5)
    return dict(n=n, m=m, per_s=n / t, svd_per_s=n / t_sv)

def notebook_times():
    out = {}
    for nb in sorted((ROOT / 'nbs').glob('*.ipynb')):
        t0 = time.perf_counter()
        r = subprocess.run(['nbdev_test', '--path', str(nb), '--n_workers', '0'], cwd=ROOT, capture_output=True, text=True)
        out[nb.name] = (time.perf_counter() - t0, r.returncode == 0)
    return out

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--notebooks', action='store_true', help='also time each notebook under nbdev_test')
    ap.add_argument('--batches', default='8,16,64,256')
    a = ap.parse_args()
    lines = [f"# Benchmarks", '', f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; torch {torch.__version__}; "
             f"{time.strftime('%Y-%m-%d')}. Medians of repeated runs.", '']
    for threads in (1, 2):
        torch.set_num_threads(threads)
        rate = matmul_rate()
        rows = trainer_bench([int(b) for b in a.batches.split(',')])
        lines += [f"## Ensemble trainer, {threads} thread{'s' if threads > 1 else ''}", '',
                  f"96 softmax heads (L = 16, d = 8, head dimensions 1–8), Adam, 30 steps of fresh batches. Dense fp32 matmul rate "
                  f"(512³ GEMM) in this run: **{rate:.1f} GFLOP/s**. The loop trains 12 members one by one and is scaled to 96.", '',
                  '| batch | ensemble (s) | per-model loop (s) | speed-up | GFLOP/s (fwd+bwd) | % of matmul rate | max |Δ kernel| member vs alone |',
                  '|---|---|---|---|---|---|---|']
        lines += [f"| {r['batch']} | {r['ensemble_s']:.3f} | {r['loop_s']:.2f} | {r['speedup']:.1f}× | {r['gflops']:.2f} | {100 * r['gflops'] / rate:.1f}% | {r['max_diff']:.1e} |" for r in rows]
        lines.append('')
        sp = spectra_bench()
        lines += [f"## Spectral estimators, {threads} thread{'s' if threads > 1 else ''}", '',
                  f"`energy_rank` on a batch of {sp['n']} matrices {sp['m']}×{sp['m']} (float64): **{sp['per_s']:.0f} spectra/s** "
                  f"(`torch.linalg.svdvals` alone: {sp['svd_per_s']:.0f}/s).", '']
        print('\n'.join(lines[-(len(rows) + 9):]), flush=True)
    torch.set_num_threads(1)
    if a.notebooks:
        nt = notebook_times()
        lines += ['## Notebooks under nbdev_test (one at a time)', '', '| notebook | seconds | passed |', '|---|---|---|']
        lines += [f"| {k} | {t:.1f} | {'yes' if ok else 'NO'} |" for k, (t, ok) in nt.items()]
        lines += ['', f"Sum: {sum(t for t, _ in nt.values()):.0f} s.", '']
    (ROOT / 'BENCHMARKS.md').write_text('\n'.join(lines) + '\n')
    print('\n'.join(lines))

if __name__ == '__main__': main()
