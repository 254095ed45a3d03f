"""Time every kernel-rank method on the frontier's cells and on 1,000 sequences of L = 128 (medians).
BENCHMARKS.md, section "Kernel-rank estimator".

python bench/kernel_rank.py [--threads 1] [--repeats 5]   prints a markdown table for BENCHMARKS.md
"""
import argparse, statistics, time
import torch
from entropic_bound.tasks import AttentionTask
from entropic_bound.estimators.kernel_rank import METHODS, kernel_rank_readings

CASES = [  # (kind, n, L, d, beta): the frontier's cells (n = 64, d = 8), then the large case
    ('linear', 64, 12, 8, 1.), ('linear', 64, 16, 8, 1.), ('linear', 64, 32, 8, 1.), ('linear', 64, 64, 8, 1.),
    ('linear', 1024, 16, 8, 1.), ('softmax', 64, 16, 8, 4.), ('softmax', 64, 32, 8, 4.), ('softmax', 64, 64, 8, 4.),
    ('linear', 1000, 128, 8, 1.), ('softmax', 1000, 128, 8, 4.), ('linear', 1000, 128, 32, 1.),
    ('softmax', 1000, 128, 32, 4.)]

def time_case(kind, n, L, d, beta, repeats):
    T = AttentionTask(L, d, [1., .7, .1], kind=kind, beta=beta, sigma=.05, seed=0)
    X, Y = T.sample(n, seed=1, dtype=torch.float64)
    out = {}
    for m in METHODS:
        kernel_rank_readings(X, Y, kind=kind, methods=(m,))                 # warm-up
        ts = []
        for _ in range(repeats):
            t0 = time.perf_counter(); r = kernel_rank_readings(X, Y, kind=kind, methods=(m,))[m]
            ts.append(time.perf_counter() - t0)
        out[m] = (statistics.median(ts), r)
    return out

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--threads', type=int, default=1); ap.add_argument('--repeats', type=int, default=5)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    print(f"| kind | n | L | d | β | " + ' | '.join(f"{m} (s)" for m in METHODS) + " | readings |")
    print('|' + '---|' * (6 + len(METHODS)))
    for c in CASES:
        r = time_case(*c, repeats=a.repeats if c[1] < 1000 else max(1, a.repeats // 2))
        print(f"| {c[0]} | {c[1]} | {c[2]} | {c[3]} | {c[4]:g} | " + ' | '.join(f"{r[m][0]:.3f}" for m in METHODS)
              + " | " + ', '.join(str(r[m][1]) for m in METHODS) + " |", flush=True)

if __name__ == '__main__': main()
