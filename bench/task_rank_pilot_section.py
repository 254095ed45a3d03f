"""Write the pilot's section of the task-rank appendix (markdown and its test) from the committed pilot records.

BENCHMARKS.md, "The real task's second round: the pilot".

    python bench/task_rank_pilot_section.py     # inserts or replaces the two cells in 61_task_rank_appendix.ipynb
"""
import json, math, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
import task_rank_pilot as P

NB = Path(__file__).resolve().parents[1] / 'nbs' / 'theorems' / '61_task_rank_appendix.ipynb'
TITLE = '## A budget for the second round'
IDS = ('b2e7c1a0', 'b2e7c1a1')
SE_G = 40                                                   # the design's SE ≤ G / SE_G

def section(R:dict) -> str:
    "The section's markdown from a `rule` result."
    B, c = R['budgets'], R['chosen']
    v1, new = B['v1_adamw1e-2_1200'], B[c]
    rows = []
    for name, v in B.items():
        opt = ('AdamW, peak 10⁻², 1,200 steps (the first round\'s records)' if name.startswith('v1')
               else f"AdamW, peak 3·10⁻³, {v['steps']:,} steps (trained here)")
        pr = ', '.join(f"{k.replace('_', ' ')}: {p['mean']:+.4f} ± {p['sd']:.4f} ({p['n']} seeds)"
                       for k, p in v['pairs'].items())
        rows.append(f"| {opt} | {v['G']:.3f} ({v['n_gap']}) | {pr} | {v['s']:.4f} | {v['seeds']} | "
                    f"{v['cpu_s_per_model']:.0f} | {v['core_hours']:.1f} | {v['mdd']:.4f} = {v['mdd_over_G']:.3f} G |")
    tb, res = P.t_bound(new), resolvable(new)
    from entropic_bound.stats import t_quantile
    sp, n = new['pairs']['uniform_2-skewed_16']['sd'], new['seeds']
    mdd_p = (t_quantile(n - 1, R['alpha']) + t_quantile(n - 1, 2 * (1 - R['power']))) * sp / math.sqrt(n)
    g_min = SE_G * new['s'] * math.sqrt(1 / R['n_min'])                 # n = n_min while G ≥ 40 s / √n_min
    robust = (f"G there rests on {new['n_gap']} seed{'s' * (new['n_gap'] > 1)} of r = 0; n stays {R['n_min']} for any G ≥ 40 s/√{R['n_min']} = "
              f"{g_min:.3f}, {g_min / new['G']:.2f} of the measured G. " if new['seeds'] == R['n_min'] else '')
    verdict = ('' if R['fits'] else f" No budget fits 8 core-hours: at the seeds they buy ({new['seeds_at_ceiling']}) "
               f"the standard error would be G/{1 / new['se_at_ceiling_over_G']:.0f}.")
    md = f"""{TITLE}

The first round's paired differences are too noisy to compare allocations at one total: at its budget the s.d.
over seeds of ℓ(r = 2) − ℓ(full), both at one seed, is {v1['s']:.3f} nats against a gap G = {v1['G']:.3f}. The second
round fixes its training budget and its seeds by a rule written before any of its data, from a pilot whose records
are committed, one JSON per trained model, under `results/paper/task_rank_v2/pilot/`
(`python bench/task_rank_pilot.py train` makes them, `… rule` reads them).

**The target.** Every endpoint of the second round is a paired difference: two allocations trained with the same
seeds (a seed fixes initialisation and data stream), D = ℓ_a − ℓ_b per seed. Its mean over n seeds has standard error
s/√n, s the s.d. of D over seeds, and the design asks s/√n ≤ G/40, so n ≥ (40 s/G)².

**The pilot.** At the paper scale (2 layers × 4 heads, d = 64, L = 64, 32 windows a step, the held-out windows of
the first round), one model per budget, allocation and seed, seeds from 100 (the second round's start at 0). The
allocations: full rank; uniform rank 2 (total 16 = H r_task(0.1) of the first round); skewed, [[4, 4, 2, 2],
[2, 1, 1, 0]], the first round's truncation allocation [[16, 16, 8, 8], [8, 4, 4, 2]] rescaled to total 16 by largest
remainders; and r = 0, for G. Two paired differences set s: uniform 2 − skewed (two allocations at one total, the
second round's primary comparison) and uniform 2 − full (the comparison that decides r_task). Two budgets: the first
round's, read from its published uniform records (r = 0, 2, 16; its optimiser; no skewed allocation there), and
3,000 steps of AdamW at peak 3·10⁻³, 20 warm-up steps and cosine decay, trained here. Two models at 1,200 steps and
3·10⁻³ (one seed, no s.d.) give the CPU time of a 1,200-step model.

**The rule.** Per budget: s = the larger s.d. of the pairs; G = the budget's own mean ℓ(0) − ℓ(full);
n = max({R['n_min']}, ⌈(40 s/G)²⌉), at least four seeds so that a 95% t-interval has three degrees of freedom; the second
round's compute C = n (30.6 c + {R['eval_s_per_seed']:.0f} s), c the median CPU seconds of one model at the budget on
one thread. The 30.6 models per seed are the uniform curve r ∈ {{0, 1, 2, 3, 4, 6, 8, 12, 16}} (9), three predictors
and four random allocations at each of three totals (21; uniform at each total lies on the curve) and heals of a
tenth of the steps for two allocations at each total (0.6); the {R['eval_s_per_seed']:.0f} s are the predictors' readings of
a full-rank model (the first round's 530 s for four seeds on six ranks, scaled to nine). The budget chosen is the
one of least C among those with C ≤ 8 core-hours (ties: more steps); if none fits, the one whose standard error at
the seeds 8 core-hours buy is the smallest share of G. The minimal detectable difference, at 80% power
and the two-sided α = 0.05 of the 95% intervals, is MDD = (t_{{n−1, 0.975}} + t_{{n−1, 0.80}}) s/√n.

| budget | G (seeds) | paired D: mean ± s.d. | s | n | c (CPU s) | C (core-hours) | MDD |
| --- | --- | --- | --- | --- | --- | --- | --- |
{chr(10).join(rows)}

**The budget chosen:** {new['steps']:,} steps at peak 3·10⁻³ with n = {new['seeds']} seeds: standard error
{new['se']:.4f} = G/{new['G'] / new['se']:.0f}, MDD {new['mdd']:.4f} nats ({new['mdd_over_G']:.3f} G), about
{new['core_hours']:.1f} core-hours.{verdict} The first round's budget would need {v1['seeds']} seeds ({v1['core_hours']:.0f} core-hours).
{robust}At the primary comparison's own s.d. ({sp:.4f}, uniform 2 − skewed) the MDD is {mdd_p:.4f} nats
({mdd_p / new['G']:.3f} G). The pilot's s rests on {new['pilot_seeds']} seeds: at its one-sided 80% upper bound (χ², {new['pilot_seeds'] - 1} d.f.) the rule would ask {new['seeds_at_s_up']} seeds.

**What this design can resolve.** r_task(ε) is resolved at a rank whose upper 95% bound of ℓ_r − ℓ_full is at most
ε G. A rank whose true difference is 0 has that bound near t_{{n−1, 0.975}} s/√n = {tb:.3f} G at this design, so
{res}.
"""
    return md

def resolvable(d:dict) -> str:
    "Which ε ∈ {0.1, 0.05, 0.02} a design resolves at a rank of true difference 0, and the seeds the others need."
    tb, out = P.t_bound(d), []
    for e in (0.1, 0.05, 0.02):
        out.append(f'ε = {e:g} can be resolved there' if tb <= e else
                   f'ε = {e:g} cannot (it would need {P.seeds_to_resolve(d, e)} seeds at this s)')
    return '; '.join(out)

def stated(R:dict) -> str:
    "The test's expected numbers, as printed in the section (rounded as printed)."
    B = R['budgets']
    return ', '.join(f"'{k}': ({B[k]['G']:.3f}, {B[k]['s']:.4f}, {B[k]['seeds']}, {B[k]['core_hours']:.1f}, "
                     f"{B[k]['mdd']:.4f})" for k in ('v1_adamw1e-2_1200', 'adamw3e-3_3000'))

def test_source(R:dict) -> str:
    "The test cell: recompute the rule from the records, then compare with the numbers the section prints."
    return f"""# The rule recomputed from the committed pilot records and the first round's uniform records
import json, math
from entropic_bound.harness.experiment import published_root
from entropic_bound.stats import t_quantile
root = published_root() / 'paper'
L = {{}}                                                      # {{budget: {{allocation: {{seed: held-out loss}}}}}}
for p in sorted((root / 'task_rank_v2' / 'pilot').glob('*/*.json')):
    r = json.loads(p.read_text()); L.setdefault(r['budget'], {{}}).setdefault(r['allocation'], {{}})[r['seed']] = r
cpu = {{b: float(np.median([r['cpu_s'] for a in v.values() for r in a.values()])) for b, v in L.items()}}
L = {{b: {{a: {{s: r['held_out'] for s, r in d.items()}} for a, d in v.items()}} for b, v in L.items()}}
v1 = {{}}
for p in sorted((root / 'task_rank' / 'uniform').glob('*.json')):
    m = json.loads(p.read_text())['metrics']
    for r, s, l in zip(m['ranks'], m['seeds'], m['held_out']):
        if r in (0, 2, 16): v1.setdefault({{0: 'zero', 2: 'uniform_2', 16: 'full'}}[r], {{}})[s] = l
L['v1_adamw1e-2_1200'], cpu['v1_adamw1e-2_1200'] = v1, cpu['adamw3e-3_1200']
def D(b, x, y):
    "ℓ(x) − ℓ(y) at budget b over the seeds both have."
    return np.array([L[b][x][s] - L[b][y][s] for s in sorted(set(L[b].get(x, {{}})) & set(L[b].get(y, {{}})))])
got = {{}}
for b in ('v1_adamw1e-2_1200', 'adamw3e-3_3000'):
    G = D(b, 'zero', 'full').mean()
    s = max(d.std(ddof=1) for d in (D(b, 'uniform_2', 'skewed_16'), D(b, 'uniform_2', 'full')) if len(d) >= 2)
    n = max(4, math.ceil((40 * s / G) ** 2))
    C = n * (30.6 * cpu[b] + 530 / 4 * 9 / 6) / 3600
    n8 = int(8 * 3600 // (30.6 * cpu[b] + 530 / 4 * 9 / 6))                 # seeds 8 core-hours buy
    got[b] = (G, s, n, C, (t_quantile(n - 1, 0.05) + t_quantile(n - 1, 0.4)) * s / math.sqrt(n), s / math.sqrt(n8) / G)
want = {{{stated(R)}}}
for b, (G, s, n, C, mdd) in want.items():                     # the numbers the section prints
    g = got[b]                                                 # G, s, n, C, MDD, SE at 8 core-hours / G
    test_close(g[0], G, eps=5e-4); test_close(g[1], s, eps=5e-5); test_eq(g[2], n)
    test_close(g[3], C, eps=0.05); test_close(g[4], mdd, eps=5e-5)
fits = [b for b, g in got.items() if g[3] <= 8]
chosen = min(fits, key=lambda b: (got[b][3], -int(b.split('_')[-1]))) if fits else min(got, key=lambda b: got[b][5])
test_eq(chosen, {R['chosen']!r})                               # the budget the rule chooses
"""

def main():
    R = P.rule()
    (P.OUT / 'rule.json').write_text(json.dumps(R, indent=1) + '\n')
    md = section(R)
    nb = json.loads(NB.read_text())
    cells = [c for c in nb['cells'] if c.get('id') not in IDS]
    at = next(i for i, c in enumerate(cells) if ''.join(c['source']).startswith('## Every claim'))
    new = [dict(cell_type='markdown', id=IDS[0], metadata={}, source=md.strip('\n').splitlines(True)),
           dict(cell_type='code', execution_count=None, id=IDS[1], metadata={}, outputs=[],
                source=test_source(R).strip('\n').splitlines(True))]
    nb['cells'] = cells[:at] + new + cells[at:]
    NB.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + '\n')
    print(md); print(test_source(R))

if __name__ == '__main__': main()
