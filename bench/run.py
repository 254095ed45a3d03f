#!/usr/bin/env python
"""CPU benchmarks of entropic-bound: one command, its tables printed for BENCHMARKS.md's sections "The ensemble trainer",
"Spectral estimators" and (`--kernel`) "`recover_kernel_rank` with a known value map"; BENCHMARKS.md is edited by hand.

    python bench/run.py                 # trainer and spectra at 1 and 2 threads (about 10 minutes on 2 cores)
    python bench/run.py --notebooks     # also time every notebook under nbdev_test, one at a time
    python bench/run.py --kernel        # only recover_kernel_rank's known-W_V path vs d (its own section)

Timings are medians of repeated runs, interleaved so that a slow moment of a shared machine hits every variant alike;
ratios are against a per-model loop and against the dense fp32 matmul rate measured in the same run with the same
thread setting. Nothing here is a test: targets are read, not asserted.
"""
import argparse, json, os, platform, resource, statistics, subprocess, sys, time
from pathlib import Path
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from entropic_bound.tasks import AttentionTask
from entropic_bound.models import AttentionHead
from entropic_bound.train import fit
from entropic_bound.spectra import energy_rank, numerical_rank, singular_values

def timed(fn, setup=lambda: None) -> float:
    "Seconds of one call of `fn(setup())`, the setup not counted."
    arg = setup()
    t0 = time.perf_counter(); fn(arg)
    return time.perf_counter() - t0

def interleaved(variants:dict, reps:int) -> dict:
    "Median seconds of each variant {name: (fn, setup)}, the variants run in turn `reps` times after one warm-up each."
    for fn, setup in variants.values(): timed(fn, setup)
    ts = {k: [] for k in variants}
    for _ in range(reps):
        for k, (fn, setup) in variants.items(): ts[k].append(timed(fn, setup))
    return {k: statistics.median(v) for k, v in ts.items()}

def matmul_rate(n=512, reps=20) -> float:
    "Dense fp32 GEMM rate (GFLOP/s) at the current thread setting: median of 7 runs of `reps` products."
    a, b = torch.randn(n, n), torch.randn(n, n)
    t = interleaved({'mm': (lambda _: [a @ b for _ in range(reps)], lambda: None)}, 7)['mm']
    return 2 * n ** 3 * reps / t / 1e9

def head_flops(L, d, dv, ranks, B) -> float:
    "Useful forward + backward FLOPs of one training step (backward = 2× forward), counted at each member's own rank r."
    fwd = sum(2 * B * L * d * (2 * r + dv) + 2 * B * L * L * (r + dv) + 5 * B * L * L for r in ranks)
    return 3 * fwd

def plain_loss(self, X, Y):
    "The autograd path (the trainer before the training path): per-member batched products."
    Q, K, V = self._project(X)
    return ((self._mix(Q, K) @ V - Y) ** 2).mean((1, 2, 3))

def trainer_bench(batches, E=96, L=16, d=8, steps=30, loop_members=12, reps=5):
    "Ensemble of softmax heads vs the same members trained one by one (same data, same results), and vs the autograd path."
    T = AttentionTask(L=L, d=d, spectrum=[1.5, 1., .5], kind='softmax', seed=0)
    ranks, seeds = [1 + i % 8 for i in range(E)], list(range(E))
    kw = dict(steps=steps, lr=1e-2, optimizer='adam', seed=1, device='cpu', progress=False)
    rows = []
    for B in batches:
        ens = lambda: AttentionHead(d, ranks, seeds=seeds)
        members = lambda: [AttentionHead(d, [ranks[i]], seeds=[seeds[i]]) for i in range(loop_members)]
        def plain(h):
            AttentionHead.loss, saved = plain_loss, AttentionHead.loss
            try: fit(h, T, batch_size=B, **kw)
            finally: AttentionHead.loss = saved
        t = interleaved({'ensemble': (lambda h: fit(h, T, batch_size=B, **kw), ens), 'autograd': (plain, ens),
                         'loop': (lambda hs: [fit(h, T, batch_size=B, **kw) for h in hs], members),
                         'loop_autograd': (lambda hs: [plain(h) for h in hs], members)}, reps)
        best = 'loop' if t['loop'] <= t['loop_autograd'] else 'loop_autograd'    # the faster way to train one model
        t['loop'] = t[best] * E / loop_members
        h = ens(); fit(h, T, batch_size=B, **kw)                                   # same results, member by member
        err = 0.
        for i in range(3):
            one = AttentionHead(d, [ranks[i]], seeds=[seeds[i]])
            fit(one, T, batch_size=B, **kw)
            err = max(err, (one.kernel()[0] - h.kernel()[i]).abs().max().item())
        gf = head_flops(L, d, d, ranks, B) * steps / t['ensemble'] / 1e9
        rows.append(dict(batch=B, ensemble_s=t['ensemble'], autograd_s=t['autograd'], loop_s=t['loop'], loop_path=best,
                         speedup=t['loop'] / t['ensemble'], gain=t['autograd'] / t['ensemble'], gflops=gf, max_diff=err))
    return rows

def spectra_bench(n=2000, m=64, reps=7):
    M = torch.randn(n, m, m, dtype=torch.float64)
    t = interleaved({'energy': (lambda _: energy_rank(M, .99), lambda: None), 'numerical': (lambda _: numerical_rank(M), lambda: None),
                     'svdvals': (lambda _: torch.linalg.svdvals(M), lambda: None)}, reps)
    return dict(n=n, m=m, **{k: n / v for k, v in t.items()})

def reproduce_times(threads=(1, 2), reps=2):
    "Seconds of `eb-reproduce --only X --threads t` (quick scale, fresh results folder), interleaved over thread settings."
    import tempfile
    from entropic_bound.harness.cli import THEOREMS
    ts = {(x, t): [] for x in THEOREMS for t in threads}
    for _ in range(reps):
        for x in THEOREMS:
            for t in threads:
                with tempfile.TemporaryDirectory() as d:
                    t0 = time.perf_counter()
                    subprocess.run([sys.executable, '-m', 'entropic_bound.harness.cli', '--only', x, '--threads', str(t), '--out', d],
                                   cwd=ROOT, capture_output=True, check=True)
                    ts[x, t].append(time.perf_counter() - t0)
    return {k: statistics.median(v) for k, v in ts.items()}

def notebook_times():
    out = {}
    for nb in sorted((ROOT / 'nbs').glob('*.ipynb')):
        t0 = time.perf_counter()
        r = subprocess.run(['nbdev_test', '--path', str(nb), '--n_workers', '0'], cwd=ROOT, capture_output=True, text=True)
        out[nb.name] = (time.perf_counter() - t0, r.returncode == 0)
    return out

KERNEL_HEAD = '## `recover_kernel_rank` with a known value map: time and memory vs d'

def dense_design(X, Y, W_V):
    "The known-W_V path before the normal equations: the (n L d_v) × d² design matrix (baseline only)."
    n, L, d = X.shape
    B = (X.transpose(1, 2) @ X / L) @ W_V
    A = torch.einsum('mji,mab->mjbia', X, B).reshape(n * L * Y.shape[2], d * d)
    return torch.linalg.solve(A.T @ A, A.T @ Y.reshape(-1))

def kernel_one(d:int, how:str, n:int=64, L:int=128) -> dict:
    "One run in this (fresh) process: seconds and peak resident memory of one known-W_V reading at width d."
    from entropic_bound.estimators.kernel_rank import recover_kernel_rank
    torch.set_num_threads(1)
    T = AttentionTask(L=L, d=d, spectrum=[1.5, 1., .5], kind='linear', sigma=.01, seed=0)
    X, Y = T.sample(n, seed=1, dtype=torch.float64)
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    r = None
    if how == 'normal': r = recover_kernel_rank(X, Y, W_V=T.W_V)
    elif how == 'stacked': r = recover_kernel_rank(X, Y)
    elif how == 'dense': dense_design(X, Y, T.W_V)
    t = time.perf_counter() - t0
    return dict(d=d, how=how, s=t, peak_mb=(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) / 1024, rank=r)

def kernel_bench(ds=(16, 24, 32, 48, 64), dense_max:int=24, n:int=64, L:int=128) -> list:
    "Each (d, path) in its own process, so that the peak memory is that run's own."
    rows = []
    for d in ds:
        for how in ('normal', 'stacked') + (('dense',) if d <= dense_max else ()):
            out = subprocess.run([sys.executable, __file__, '--kernel-one', f'{d},{how},{n},{L}'], cwd=ROOT,
                                 capture_output=True, text=True, check=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
            rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
            print(rows[-1], flush=True)
    return rows

def kernel_section(rows, n=64, L=128) -> list:
    by = {(r['d'], r['how']): r for r in rows}
    lines = [KERNEL_HEAD, '', f"n = {n} sequences of L = {L} tokens, d_v = d, a rank-3 kernel, noise .01, float64, 1 thread; "
             "each run in its own process (peak resident memory above the data, from `ru_maxrss`). *normal equations*: "
             "`recover_kernel_rank(X, Y, W_V=W_V)`, which sums per-sequence Kronecker Gram matrices (d² × d² system); "
             "*dense design*: the (n·L·d_v) × d² design matrix the known-W_V path built before (a baseline, run only where it "
             "fits); *per-sequence*: `recover_kernel_rank(X, Y)` without the value map. Design size = n·L·d·d²·8 bytes.", '',
             '| d | normal equations (s) | peak (MB) | reads | dense design (s) | peak (MB) | design size (GB) | per-sequence (s) | reads |',
             '|---|---|---|---|---|---|---|---|---|']
    for d in sorted({r['d'] for r in rows}):
        a, b, c = by[d, 'normal'], by.get((d, 'dense')), by[d, 'stacked']
        ds, dm = (f"{b['s']:.2f}", f"{b['peak_mb']:.0f}") if b else ('not run', '–')
        lines.append(f"| {d} | {a['s']:.2f} | {a['peak_mb']:.0f} | {a['rank']} | {ds} | {dm} | {n * L * d ** 3 * 8 / 1e9:.2f} | "
                     f"{c['s']:.3f} | {c['rank']} |")
    return lines + ['']

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--notebooks', action='store_true', help='also time each notebook under nbdev_test')
    ap.add_argument('--reproduce', action='store_true', help='also time eb-reproduce (quick) per experiment at 1 and 2 threads')
    ap.add_argument('--batches', default='8,16,64,256')
    ap.add_argument('--threads', default='1,2')
    ap.add_argument('--kernel', action='store_true', help="only recover_kernel_rank's known-W_V path vs d")
    ap.add_argument('--kernel-one', help=argparse.SUPPRESS)
    ap.add_argument('--note', default='', help='a sentence added to the --kernel section (e.g. how loaded the machine was)')
    a = ap.parse_args()
    if a.kernel_one:
        d, how, n, L = a.kernel_one.split(',')
        print(json.dumps(kernel_one(int(d), how, int(n), int(L)))); return
    if a.kernel:
        lines = kernel_section(kernel_bench())
        if a.note: lines = lines[:-1] + ['', a.note, '']
        print('\n'.join(lines)); return
    lines = [f"# Benchmarks", '', f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; torch {torch.__version__}; "
             f"{time.strftime('%Y-%m-%d')}. Medians of interleaved repeated runs (`python bench/run.py`).", '']
    for threads in [int(t) for t in a.threads.split(',')]:
        torch.set_num_threads(threads)
        rate = matmul_rate()
        rows = trainer_bench([int(b) for b in a.batches.split(',')])
        rate = statistics.median([rate, matmul_rate()])                       # before and after the trainer runs
        s = 's' if threads > 1 else ''
        sec = [f"## Ensemble trainer, {threads} thread{s}", '',
               f"96 softmax heads (L = 16, d = 8, head dimensions 1–8), Adam, 30 steps of fresh batches, `fit` timed (not the "
               f"construction of the heads). Dense fp32 matmul rate (512³ GEMM) in this run: **{rate:.1f} GFLOP/s**. The loop "
               "trains 12 members one by one, by the faster of the two paths for a single member (marked), and is scaled to 96. *autograd path* is the same ensemble through the plain "
               "autograd forward (per-member batched products), the trainer before the training path.", '',
               '| batch | ensemble (s) | autograd path (s) | per-model loop (s) | speed-up vs loop | vs autograd path | GFLOP/s (fwd+bwd) | % of matmul rate | max abs. Δ kernel, member vs alone |',
               '|---|---|---|---|---|---|---|---|---|']
        sec += [f"| {r['batch']} | {r['ensemble_s']:.3f} | {r['autograd_s']:.3f} | {r['loop_s']:.2f} ({'autograd' if r['loop_path'] == 'loop_autograd' else 'training'} path) | {r['speedup']:.1f}× | {r['gain']:.1f}× | "
                f"{r['gflops']:.1f} | {100 * r['gflops'] / rate:.1f}% | {r['max_diff']:.1e} |" for r in rows]
        sp = spectra_bench()
        sec += ['', f"## Spectral estimators, {threads} thread{s}", '',
                f"A batch of {sp['n']} matrices {sp['m']}×{sp['m']} (float64): `energy_rank` **{sp['energy']:.0f} spectra/s** "
                f"(Gram eigenvalues), `numerical_rank` {sp['numerical']:.0f}/s (singular values), one `torch.linalg.svdvals` call "
                f"on the batch {sp['svdvals']:.0f}/s.", '']
        print('\n'.join(sec), flush=True)
        lines += sec
    torch.set_num_threads(1)
    if a.reproduce:
        rt = reproduce_times()
        names = sorted({x for x, _ in rt}, key=list(dict.fromkeys(x for x, _ in rt)).index)
        lines += ['## `eb-reproduce` (quick) by thread setting', '', 'Median of 2 runs per experiment, the thread settings interleaved.', '',
                  '| experiment | 1 thread (s) | 2 threads (s) |', '|---|---|---|']
        lines += [f"| {x} | {rt[x, 1]:.1f} | {rt[x, 2]:.1f} |" for x in names]
        lines += [f"| all | {sum(rt[x, 1] for x in names):.0f} | {sum(rt[x, 2] for x in names):.0f} |", '']
        print('\n'.join(lines[-(len(names) + 7):]), flush=True)
    if a.notebooks:
        nt = notebook_times()
        lines += ['## Notebooks under nbdev_test (one at a time)', '', '| notebook | seconds | passed |', '|---|---|---|']
        lines += [f"| {k} | {t:.1f} | {'yes' if ok else 'NO'} |" for k, (t, ok) in nt.items()]
        lines += ['', f"Sum: {sum(t for t, _ in nt.values()):.0f} s.", '']
    print('\n'.join(lines[-(len(nt) + 6):] if a.notebooks else []))

if __name__ == '__main__': main()
