"""The likelihood count's first calibration and power slice (a slice of the calibration and power grid).

BENCHMARKS.md, "The likelihood count against the default".

python bench/likelihood_slice.py [--draws 12] [--power-draws 24] [--out bench/likelihood_slice.json]

Nulls: k = 1 planted (spectrum (1,), a strong direction: any reading above 1 is an over-count), a random value map of
rank d, noise σ = 0.05 absolute, over d ∈ {8, 16}, n ∈ {64, 256}, L ∈ {d + 1, 2d, 4d}, linear and softmax at
β ∈ {1, 4}; the likelihood count and the calibrated count read the same draws. Power: linear, d = 8, n = 64,
spectrum (1, 0.7, s_min) at L = 16 and 32, s_min on a grid around the exact-moment BBP floor of the weighted stack
(01_kernel_rank §7); the 50% point of each count by a logistic fit. Data drawn by 41_kernel_rank's NumPy sampler (no
code shared with either estimator). Run under the CPU lock: `flock /tmp/eb-cpu.lock python bench/likelihood_slice.py`.
"""
import argparse, json, math, time, tempfile, warnings
import numpy as np, torch
from entropic_bound.estimators.kernel_rank import recover_kernel_rank, detectability_floors, CalibrationWarning
from entropic_bound.estimators.likelihood_rank import likelihood_count, NoiseModelRefused
from entropic_bound.stats import fifty_point, binomial_tail
from entropic_bound.theorems.kernel_rank import planted_attention, planted_teacher

def clopper_pearson(x:int, N:int, level:float=.95) -> tuple:
    "Exact two-sided binomial interval of a rate x/N."
    from scipy.stats import beta
    a = 1 - level
    return (0. if x == 0 else float(beta.ppf(a / 2, x, N - x + 1)), 1. if x == N else float(beta.ppf(1 - a / 2, x + 1, N - x)))

def read_both(X, Y, kind, cache):
    out = {}
    try: out['likelihood'] = likelihood_count(X, Y, kind=kind, cache_dir=cache)
    except NoiseModelRefused: out['likelihood'] = None
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', CalibrationWarning)
        try: out['calibrated'] = recover_kernel_rank(X, Y, kind=kind)
        except ValueError: out['calibrated'] = None
    return out

def null_slice(draws:int, cache) -> list:
    cells = []
    for d in (8, 16):
        for n in (64, 256):
            for L in (d + 1, 2 * d, 4 * d):
                for kind, beta in (('linear', 1.), ('softmax', 1.), ('softmax', 4.)):
                    rng = np.random.default_rng([d, n, L, int(beta), kind == 'softmax'])
                    reads, t0 = {'likelihood': [], 'calibrated': []}, time.perf_counter()
                    for i in range(draws):
                        teacher = planted_teacher(rng, d, [1.], d) if i % 4 == 0 else teacher   # 4 draws a teacher
                        X, Y = planted_attention(rng, n, L, d, [1.], kind, beta, d, .05, False, teacher)
                        for m, r in read_both(X, Y, kind, cache).items(): reads[m].append(r)
                    cells.append(dict(d=d, n=n, L=L, kind=kind, beta=beta, k=1, reads=reads,
                                      seconds=time.perf_counter() - t0))
                    print(cells[-1]['d'], n, L, kind, beta, {m: r[:12] for m, r in reads.items()}, flush=True)
    return cells

def power_slice(draws:int, cache) -> list:
    out = []
    factors = (.6, .8, 1., 1.2, 1.5, 2., 2.5, 3.)
    for L in (16, 32):
        fl = detectability_floors(L, 8, 64, 8, .05)
        rows = []
        for f in factors:
            s = f * fl.stack
            rng = np.random.default_rng([L, int(1e4 * f)])
            reads = {'likelihood': [], 'calibrated': []}
            for i in range(draws):
                teacher = planted_teacher(rng, 8, [1., .7, s], 8) if i % 4 == 0 else teacher
                X, Y = planted_attention(rng, 64, L, 8, [1., .7, s], 'linear', 1., 8, .05, False, teacher)
                for m, r in read_both(X, Y, 'linear', cache).items(): reads[m].append(r)
            rows.append(dict(s_min=s, reads=reads))
            print(L, round(s, 4), {m: sum(x == 3 for x in r) for m, r in reads.items()}, flush=True)
        f50 = {}
        for m in ('likelihood', 'calibrated'):
            pt, se = fifty_point([r['s_min'] for r in rows], [sum(x == 3 for x in r['reads'][m]) for r in rows],
                                 [len(r['reads'][m]) for r in rows])
            f50[m] = dict(fifty=pt, se=se, over_floor=pt / fl.stack, se_over_floor=se / fl.stack,
                          overcounts=sum(x > 3 for r in rows for x in r['reads'][m]))
        out.append(dict(L=L, d=8, n=64, sigma=.05, floor_stack=fl.stack, floor_likelihood=fl.likelihood,
                        predicted_calibrated=fl.calibrated, rows=rows, fifty=f50))
    return out

def summarise(cells:list, alpha:float=.01) -> dict:
    out = {}
    for m in ('likelihood', 'calibrated'):
        acc = [r for c in cells for r in c['reads'][m] if r is not None]
        x, N = sum(r > 1 for r in acc), len(acc)
        under = sum(r < 1 for r in acc)
        per_cell = []
        for c in cells:
            rs = [r for r in c['reads'][m] if r is not None]
            if rs: per_cell.append(dict(d=c['d'], n=c['n'], L=c['L'], kind=c['kind'], beta=c['beta'],
                                        over=sum(r > 1 for r in rs), draws=len(rs),
                                        tail_p=binomial_tail(sum(r > 1 for r in rs), len(rs), alpha)))
        out[m] = dict(overcounts=x, draws=N, rate=x / N if N else None, interval95=clopper_pearson(x, N),
                      pooled_tail_p=binomial_tail(x, N, alpha), undercounts=under,
                      refused=sum(r is None for c in cells for r in c['reads'][m]),
                      cells_flagged_at_1pct=[c for c in per_cell if c['tail_p'] < .01])
    return out

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--draws', type=int, default=12)
    ap.add_argument('--power-draws', type=int, default=24)
    ap.add_argument('--out', default='bench/likelihood_slice.json')
    a = ap.parse_args()
    torch.set_num_threads(1)
    cache = tempfile.mkdtemp(prefix='eb-likelihood-')
    t0 = time.perf_counter()
    cells = null_slice(a.draws, cache)
    power = power_slice(a.power_draws, cache)
    res = dict(alpha=.01, null=dict(cells=cells, summary=summarise(cells)), power=power,
               seconds=time.perf_counter() - t0, threads=1)
    json.dump(res, open(a.out, 'w'), indent=1)
    print(json.dumps(res['null']['summary'], indent=1))
    print(json.dumps([dict(L=p['L'], floor=p['floor_stack'], fifty=p['fifty']) for p in power], indent=1))

if __name__ == '__main__':
    main()
