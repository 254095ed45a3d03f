"""What the iid edge rule admitted against the derived noise level (nbs/20_ladder.ipynb §5, issue 24).

`clears_edge` read an estimator where its threshold cleared the iid bulk edge 2 s.e. √L / σ̂₁. Issue 24 derived
`noise_bound` (Tropp's matrix Gaussian series bound, v̂ from M̂'s delete-a-block replicates) and then replaced the gate
by `decided_reading` (a count is read only where every spectrum within `noise_bound` of ŝ gives it). This script, kept
for the record, counts on the linear γ rung (γ > 0, every teacher, every estimator) how many readings the old rule
admits with the edge it used, with Tropp's expectation bound √(2 v̂ ln 2L)/σ̂₁, and with the high-probability
`noise_bound`/σ̂₁, and at which γ's each estimator would lose readings. It reads the published paper records and the
quick records of a results folder (default $EB_RESULTS, else the cache; compute them with `eb-reproduce --only ladder`
first). Seconds.

    python bench/ladder_gate_derived.py [QUICK_RESULTS_ROOT]
"""
import math, sys
from entropic_bound.harness.experiment import ResultsCache
from entropic_bound.theorems import ladder as lz
from pathlib import Path

def gate_counts(scale:str, root) -> str:
    S = lz.ladder_sizes(scale)
    st = lz.THEOREM.records(ResultsCache(root, scale=scale, readonly=True, device='cpu'), 'static')
    ms = lz.gamma_curves(st, 'linear', 1, S['gammas'])['metrics']
    P, L = sum(map(len, ms)), S['L']
    cnt, lost, ratio = dict(iid_edge=0, expectation=0, bound=0), {}, []
    for g, row in zip(S['gammas'], ms):
        if g == 0: continue
        for m in row:
            s1 = m['mixer_sv'][0]
            e_exp = math.sqrt(2 * m['noise_v'] * math.log(2 * L)) / s1
            e_bd = lz.noise_bound(m, L, S['d'], S['n'], P) / s1
            ratio.append(e_exp / m['edge'])
            for e in lz.LADDER_ESTIMATORS:
                a, b, c = (lz.clears_edge(e, x, L) for x in (m['edge'], e_exp, e_bd))
                cnt['iid_edge'] += a; cnt['expectation'] += b; cnt['bound'] += c
                if a and not b: lost.setdefault(e, set()).add(g)
    return (f"{scale}: readings admitted {cnt}; expectation edge / iid edge {min(ratio):.2f}–{max(ratio):.2f}; "
            f"γ's where the expectation edge drops a reading: { {e: sorted(v) for e, v in lost.items()} }")

if __name__ == '__main__':
    print(gate_counts('paper', Path(__file__).resolve().parents[1] / 'results'))
    print(gate_counts('quick', sys.argv[1] if len(sys.argv) > 1 else None))
