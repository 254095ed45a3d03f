"""Time the likelihood count against the calibrated count: first call (no stored null) and cached, one core.

BENCHMARKS.md, "The likelihood count against the default".

flock /tmp/eb-cpu.lock python bench/likelihood_time.py [--out bench/likelihood_time.json]   prints a markdown table
"""
import argparse, json, statistics, tempfile, time, warnings
import torch
from entropic_bound.tasks import AttentionTask
from entropic_bound.estimators import likelihood_rank as lr
from entropic_bound.estimators.kernel_rank import recover_kernel_rank

SHAPES = [(8, 64, 16), (16, 1024, 64), (64, 1024, 128)]      # (d, n, L), linear attention, d_v = d

def timed(f):
    t0 = time.perf_counter(); r = f(); return time.perf_counter() - t0, r

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', default='bench/likelihood_time.json')
    a = ap.parse_args()
    torch.set_num_threads(1)
    rows = []
    for d, n, L in SHAPES:
        T = AttentionTask(L, d, [1., .7, .1], kind='linear', sigma=.05, seed=0)
        X, Y = T.sample(n, seed=1, dtype=torch.float64)
        folder = tempfile.mkdtemp(prefix='eb-lik-time-')
        lr._MEMORY.clear()
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            first, R = timed(lambda: lr.likelihood_reading(X, Y, cache_dir=folder))
        steps = len(R['p'])
        predicted = sum(lr.null_cost(n, d - j, d, 99) for j in range(steps))
        reps = 3 if n * L * d < 5e6 else 1
        cached = []
        for _ in range(reps):
            lr._MEMORY.clear()                                                    # read back from the folder
            cached.append(timed(lambda: lr.likelihood_reading(X, Y, cache_dir=folder))[0])
        cached = statistics.median(cached)
        cal = [timed(lambda: recover_kernel_rank(X, Y)) for _ in range(reps)]
        rows.append(dict(d=d, n=n, L=L, rank_likelihood=R['rank'], rank_calibrated=cal[0][1], steps=steps,
                         first_s=first, cached_s=cached, predicted_null_s=predicted,
                         calibrated_s=statistics.median(t for t, _ in cal),
                         cost_warning=[str(x.message) for x in w if issubclass(x.category, lr.CostWarning)]))
        print(rows[-1], flush=True)
        json.dump(dict(rows=rows, threads=1), open(a.out, 'w'), indent=1)        # after each shape
    print('| (d, n, L) | likelihood: first call | cached | null predicted | calibrated | ranks (lik., cal.) |')
    print('|---|---|---|---|---|---|')
    for r in rows:
        print(f"| ({r['d']}, {r['n']}, {r['L']}) | {r['first_s']:.2f} s | {1e3 * r['cached_s']:.0f} ms | "
              f"{r['predicted_null_s']:.1f} s ({r['steps']} steps) | {r['calibrated_s']:.2f} s | "
              f"{r['rank_likelihood']}, {r['rank_calibrated']} |")

if __name__ == '__main__':
    main()
