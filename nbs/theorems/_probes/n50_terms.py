"""The finite-L 50% point of the whitened known-σ reading (nbs/theorems/13_linear_bound_data.ipynb, § 4.3 "The size of the correction, derived").

The whitened least-squares operator is, in distribution, W = diag(θ) ⊕ 0 + Z: Z an L×L iid N(0, σ²) matrix and θ the
singular values of S·(AᵀA)^½ (A an nd × r* Gaussian matrix), independent of Z. This script samples that reduced model
(no least squares, no teacher) and prints, per L:

- `median`: the exact 50% point of "r* singular values above (4/√3)σ√L" as (n₅₀/n₀ − 1)·L: per draw the critical
  scale κ_c of the signal (bisection), n₅₀/n₀ = median κ_c²; its s.e. from the order statistics at ±√D/2 ranks;
- `logistic`: the same model read as the records are (`data_only_configs` grid, the counts r̂ = r* at each n fitted by
  `stats.fifty_point`, a logistic in log n over 0.4–2 n₀), (n₅₀/n₀ − 1)·L ± s.e.;
- the derived b (`n50_coefficient`): the L → ∞ limit of the `median` column.

One thread; about 8 minutes (`--draws 40000 --Ls 64 --ranks 4`: 5 minutes; `--logistic 64,128 --draws 5000 --Ls 64,128
--ranks 4 --no-median`: the records' fit at the larger L, 3 minutes).

    python nbs/theorems/_probes/n50_terms.py [--draws 20000] [--Ls 16,32,64] [--ranks 1,4] [--logistic 16,32] [--no-median]
"""
import argparse, math, time
import numpy as np, torch
from entropic_bound.theorems.linear_bound_data import data_only_configs, recovery_sample_size, n50_coefficient
from entropic_bound.stats import fifty_point

def whitened_signal(s, N, m, g):
    "Singular values of the whitened signal S(AᵀA)^½ for m draws of an N × r Gaussian A: (m, r)."
    A = torch.randn(m, N, len(s), generator=g, dtype=torch.float64)
    return torch.linalg.eigvalsh(s[:, None] * (A.mT @ A) * s).clamp(min=0).sqrt()

def critical_scale(L, spectrum, N, D, seed, iters=22, chunk=4000) -> torch.Tensor:
    "κ_c² per draw: the signal scale at which the r*-th singular value of κ·diag(θ) + Z crosses (4/√3)√L (σ = 1)."
    g, s, r = torch.Generator().manual_seed(seed), torch.tensor(spectrum, dtype=torch.float64), len(spectrum)
    tau, out = 4 / math.sqrt(3) * math.sqrt(L), []
    for i in range(0, D, chunk):
        m = min(chunk, D - i)
        th, Z = whitened_signal(s, N, m, g), torch.randn(m, L, L, generator=g, dtype=torch.float64)
        lo, hi = torch.full((m,), .3, dtype=torch.float64), torch.full((m,), 3., dtype=torch.float64)
        for _ in range(iters):
            k = (lo * hi).sqrt()
            W = Z.clone(); W[:, torch.arange(r), torch.arange(r)] += k[:, None] * th
            det = torch.linalg.svdvals(W)[:, r - 1] > tau
            hi, lo = torch.where(det, k, hi), torch.where(det, lo, k)
        out.append(lo * hi)
    return torch.cat(out)

def hits(L, spectrum, N, D, seed, chunk=5000) -> int:
    "Draws (of D) where Gavish–Donoho (known σ = 1) reads exactly r* on the reduced model at N = nd token columns."
    g, s, r = torch.Generator().manual_seed(seed), torch.tensor(spectrum, dtype=torch.float64), len(spectrum)
    tau, h = 4 / math.sqrt(3) * math.sqrt(L), 0
    for i in range(0, D, chunk):
        m = min(chunk, D - i)
        W = torch.randn(m, L, L, generator=g, dtype=torch.float64)
        W[:, torch.arange(r), torch.arange(r)] += whitened_signal(s, N, m, g)
        h += ((torch.linalg.svdvals(W) > tau).sum(-1) == r).sum().item()
    return h

def main():
    ap = argparse.ArgumentParser(); ap.add_argument('--draws', type=int, default=20000)
    ap.add_argument('--Ls', default='16,32,64'); ap.add_argument('--ranks', default='1,4')
    ap.add_argument('--logistic', default='16,32', help="L at which the rank-4 teacher is also read by the records' fit")
    ap.add_argument('--no-median', action='store_true'); a = ap.parse_args()
    torch.set_num_threads(1)
    Ls = [int(x) for x in a.Ls.split(',')]
    for spectrum, logistic in (([.5], ()), ([4., 2., 1., .5], [int(x) for x in a.logistic.split(',')])):
        if str(len(spectrum)) not in a.ranks.split(','): continue
        print(f'spectrum {spectrum}: derived b = {n50_coefficient(spectrum, 1.):.3f}')
        for L in Ls:
            t0, D = time.time(), a.draws
            n0 = recovery_sample_size(L, 8, 1., min(spectrum))
            line = f'  L = {L:3d}:'
            if not a.no_median:
                k2 = torch.sort(critical_scale(L, spectrum, round(12 * L), D, seed=1000 + L)).values
                j = int(math.sqrt(D) / 2)
                med, se = k2[D // 2].item(), (k2[D // 2 + j] - k2[D // 2 - j]).item() / 2
                line += f' median {(med - 1) * L:.3f} ± {se * L:.3f}'
            if L in logistic:
                ns = [c for c in data_only_configs('paper') if c['L'] == L][0]['ns']
                hh = np.array([hits(L, spectrum, n * 8, D, seed=7 * n + L) for n in ns])
                n50, se50 = fifty_point(ns, hh, np.full(len(ns), D))
                line += ('; ' if not a.no_median else ' ') + f'logistic on the paper grid {(n50 / n0 - 1) * L:.3f} ± {se50 / n0 * L:.3f}'
            print(line + f'  ({D} draws, {time.time() - t0:.0f} s)', flush=True)

if __name__ == '__main__': main()
