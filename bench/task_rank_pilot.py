"""The pilot that sets task-rank v2's budget: paired (same-seed) loss differences between allocations, per budget.

BENCHMARKS.md, "The real task's second round: the pilot".

Trains, at the paper scale (d = 64, 2 layers × 4 heads, L = 64, batch 32), one model per (budget, allocation, seed),
on one CPU thread, and writes each model's record as it finishes (`results/paper/task_rank_v2/pilot/<budget>/`),
so an interrupted run loses at most the model in flight; a rerun skips every record already written.

    OMP_NUM_THREADS=1 nohup nice -n 5 python bench/task_rank_pilot.py train --seeds 100 101 102 103 > log &
    python bench/task_rank_pilot.py rule        # the rule's numbers from the committed records (markdown)

The rule (written before any v2 record; derivation in nbs/theorems/61_task_rank_appendix.ipynb, §the-v2-budget):
per budget, s = the largest sample s.d. over the pilot's paired differences, G = the budget's own mean gap
ℓ(r = 0) − ℓ(full); seeds n = max(N_MIN, ⌈(s / (G/40))²⌉); v2's compute = n × (MODELS_PER_SEED × CPU seconds per
model + EVAL_S_PER_SEED); the budget chosen is the one of least compute among those that fit 8 core-hours (ties: more
steps); if none fits, the one whose standard error at the seeds 8 core-hours buy is the smallest share of G.
"""
import argparse, json, math, os, platform, subprocess, sys, time
from pathlib import Path
import numpy as np
import torch

OUT = Path(__file__).resolve().parents[1] / 'results' / 'paper' / 'task_rank_v2' / 'pilot'
SIZES = dict(d=64, n_layer=2, n_head=4, L=64, batch=32, held_windows=2048)       # v1's paper scale
BUDGETS = {                                                  # name: the optimiser and the number of steps
    'adamw3e-3_1200': dict(steps=1200, lr=3e-3, warmup=20, schedule='cosine'),
    'adamw3e-3_3000': dict(steps=3000, lr=3e-3, warmup=20, schedule='cosine')}
ALLOCATIONS = {                                              # name: per layer, per head query–key rank
    'full': [[16] * 4] * 2,                                  # full rank (d_head = 16)
    'uniform_2': [[2] * 4] * 2,                              # total 16 = H · r_task(0.1) of v1
    'skewed_16': [[4, 4, 2, 2], [2, 1, 1, 0]],               # v1's truncation allocation rescaled to total 16
    'zero': [[0] * 4] * 2}                                   # r = 0: uniform attention (the gap's other end)
PAIRS = (('uniform_2', 'skewed_16'), ('uniform_2', 'full'))  # the paired differences whose s.d. sets the seeds
N_MIN = 4                                                    # fewest seeds of a v2 design (a t-interval with df ≥ 3)
SE_SHARE = 40                                                # the design's standard error must be ≤ G / SE_SHARE
CORE_HOURS = 8.0                                             # v2's compute ceiling
ALPHA, POWER = 0.05, 0.80                                    # v2's two-sided α (95% intervals) and the MDD's power
V1 = OUT.parents[1] / 'task_rank' / 'uniform'                # v1's published uniform records
V1_NAMES = {0: 'zero', 2: 'uniform_2', 16: 'full'}           # v1's ranks that stand for the pilot's allocations
# v2's training per seed, in trained models of the budget: the uniform curve r ∈ {0,1,2,3,4,6,8,12,16} (9); at each of
# 3 totals, 3 predictors and 4 random allocations (21; uniform at each total is on the curve); the heals, 2
# allocations × 3 totals × 10% of the steps (0.6). Beside it, a cost that does not scale with the steps: the
# predictors read from each full-rank model (v1: 530 s for 4 seeds on a 6-rank grid; v2's grid has 9 ranks).
MODELS_PER_SEED = 9 + 3 * (3 + 4) + 2 * 3 * 0.1
EVAL_S_PER_SEED = 530 / 4 * 9 / 6

def record_path(budget:str, alloc:str, seed:int) -> Path: return OUT / budget / f'{alloc}-seed{seed}.json'

def train_one(budget:str, # a key of BUDGETS
              alloc:str, # a key of ALLOCATIONS
              seed:int, # init and batch-stream seed
             ) -> dict:
    "Train one model of the paper's sizes at the budget and allocation; its held-out loss and its cost."
    from entropic_bound.lm.corpus import tokens, fixed_windows
    from entropic_bound.lm.model import RankedGPT, LMConfig
    from entropic_bound.lm.fit import fit_lm
    b, s = BUDGETS[budget], SIZES
    m = RankedGPT(LMConfig(d=s['d'], n_layer=s['n_layer'], n_head=s['n_head'], L=s['L']), [ALLOCATIONS[alloc]],
                  [seed])
    held = fixed_windows(tokens('held_out'), s['held_windows'], s['L'])
    c0, w0 = time.process_time(), time.perf_counter()
    res = fit_lm(m, b['steps'] * s['batch'] * s['L'], held, fit=tokens('fit'), batch=s['batch'], lr=b['lr'],
                 schedule=b['schedule'], warmup=b['warmup'])
    return dict(budget=budget, **b, **s, allocation=alloc, ranks=ALLOCATIONS[alloc], seed=seed,
                held_out=float(res.held_out[0]), final_train_loss=float(res.losses[-1, 0]),
                cpu_s=round(time.process_time() - c0, 2), wall_s=round(time.perf_counter() - w0, 2),
                threads=torch.get_num_threads(), torch=torch.__version__, host=f'{platform.processor() or "cpu"}, '
                f'{os.cpu_count()} cores', finished=time.strftime('%Y-%m-%dT%H:%M:%S'),
                commit=subprocess.run(['git', 'rev-parse', '--short=12', 'HEAD'], capture_output=True,
                                      text=True, cwd=OUT.parents[3]).stdout.strip())

def train(seeds:list, budgets:list, allocs:list, stop:float=None):
    "Every missing (seed, budget, allocation) record, seed by seed; stop starting models after `stop` (epoch s)."
    torch.set_num_threads(1)
    for seed in seeds:
        for budget in budgets:
            for alloc in allocs:
                p = record_path(budget, alloc, seed)
                if p.exists(): continue
                if stop and time.time() > stop: print('stop time reached', flush=True); return
                rec = train_one(budget, alloc, seed)
                p.parent.mkdir(parents=True, exist_ok=True)
                p.write_text(json.dumps(rec, indent=1) + '\n')
                print(f"{budget} {alloc} seed {seed}: {rec['held_out']:.4f} nats, {rec['cpu_s']:.0f} cpu s, "
                      f"{rec['wall_s']:.0f} wall s", flush=True)

def load(folder:Path=OUT) -> dict:
    "{budget: {alloc: {seed: record}}} of every pilot record."
    out = {}
    for p in sorted(Path(folder).glob('*/*.json')):
        r = json.loads(p.read_text()); out.setdefault(r['budget'], {}).setdefault(r['allocation'], {})[r['seed']] = r
    return out

def paired(recs:dict, a:str, b:str) -> np.ndarray:
    "ℓ(a) − ℓ(b) over the seeds both allocations have, in seed order."
    seeds = sorted(set(recs.get(a, {})) & set(recs.get(b, {})))
    return np.array([recs[a][s]['held_out'] - recs[b][s]['held_out'] for s in seeds])

def v1_budget(folder:Path=V1) -> dict:
    "{'zero'|'uniform_2'|'full': {seed: record}} from v1's published uniform records (r = 0, 2, 16; lr 10⁻², 1,200 steps)."
    out = {}
    for p in sorted(Path(folder).glob('*.json')):
        m = json.loads(p.read_text())['metrics']
        for r, s, l in zip(m['ranks'], m['seeds'], m['held_out']):
            if r in V1_NAMES: out.setdefault(V1_NAMES[r], {})[s] = dict(held_out=l)
    return out

def design(recs:dict, # {alloc: {seed: record}} of one budget
           steps:int, # its training steps
           cpu_s:float, # CPU seconds of one model at that budget (one thread)
          ) -> dict:
    "The rule at one budget: G, each pair's mean and s.d., seeds n, the design's SE and MDD, v2's core-hours."
    from entropic_bound.stats import t_quantile, chi2_quantile
    G = paired(recs, 'zero', 'full')
    d = {f'{a}-{b}': paired(recs, a, b) for a, b in PAIRS}
    d = {k: v for k, v in d.items() if len(v) >= 2}
    gap, s = float(G.mean()), max(float(v.std(ddof=1)) for v in d.values())
    n = max(N_MIN, math.ceil((s / (gap / SE_SHARE)) ** 2))
    k = min(len(v) for v in d.values())                                  # pilot seeds behind s (fewest of the pairs)
    s_up = s * math.sqrt((k - 1) / chi2_quantile(k - 1, 0.2))             # s's one-sided 80% upper bound
    n8 = int(CORE_HOURS * 3600 // (MODELS_PER_SEED * cpu_s + EVAL_S_PER_SEED))   # seeds the ceiling buys
    mdd = (t_quantile(n - 1, ALPHA) + t_quantile(n - 1, 2 * (1 - POWER))) * s / math.sqrt(n)
    return dict(steps=steps, G=gap, n_gap=len(G), s=s, pilot_seeds=k, seeds=n, se=s / math.sqrt(n),
                mdd=mdd, mdd_over_G=mdd / gap, seeds_at_s_up=max(N_MIN, math.ceil((s_up / (gap / SE_SHARE)) ** 2)),
                pairs={k: dict(mean=float(v.mean()), sd=float(v.std(ddof=1)), n=len(v)) for k, v in d.items()},
                cpu_s_per_model=cpu_s, core_hours=n * (MODELS_PER_SEED * cpu_s + EVAL_S_PER_SEED) / 3600,
                se_at_ceiling_over_G=s / math.sqrt(n8) / gap, seeds_at_ceiling=n8)

def t_bound(d:dict) -> float:
    "A design's 95% upper bound on a paired difference whose true value is 0, in units of G: t_{n−1, 0.975} SE / G."
    from entropic_bound.stats import t_quantile
    return t_quantile(d['seeds'] - 1, ALPHA) * d['se'] / d['G']

def seeds_to_resolve(d:dict, eps:float) -> int:
    "Seeds that put that bound at ε G at the design's s and G: the least n with t_{n−1, 0.975} s/√n ≤ ε G."
    from entropic_bound.stats import t_quantile
    return next(n for n in range(N_MIN, 10 ** 5) if t_quantile(n - 1, ALPHA) * d['s'] / math.sqrt(n) <= eps * d['G'])

def rule(folder:Path=OUT, v1:Path=V1) -> dict:
    "Per candidate budget (the pilot's and v1's), the design the rule gives; and the budget it chooses."
    pilot, out = load(folder), {}
    cpu = {b: float(np.median([r['cpu_s'] for a in recs.values() for r in a.values()])) for b, recs in pilot.items()}
    for budget, recs in pilot.items():
        if len(paired(recs, 'zero', 'full')) and any(len(paired(recs, a, b)) >= 2 for a, b in PAIRS):
            out[budget] = design(recs, BUDGETS[budget]['steps'], cpu[budget])
    same = [b for b in cpu if BUDGETS[b]['steps'] == 1200]                # v1's models cost what 1,200 steps cost
    if same and Path(v1).exists(): out['v1_adamw1e-2_1200'] = design(v1_budget(v1), 1200, cpu[same[0]])
    fits = [b for b, v in out.items() if v['core_hours'] <= CORE_HOURS]
    chosen = (min(fits, key=lambda b: (out[b]['core_hours'], -out[b]['steps'])) if fits else
              min(out, key=lambda b: out[b]['se_at_ceiling_over_G']))        # none fits: the best SE 8 hours buy
    return dict(budgets=out, chosen=chosen, fits=bool(fits), models_per_seed=MODELS_PER_SEED, eval_s_per_seed=EVAL_S_PER_SEED, n_min=N_MIN, se_share=SE_SHARE,
                core_hours_ceiling=CORE_HOURS, alpha=ALPHA, power=POWER)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('what', choices=('train', 'rule'))
    ap.add_argument('--seeds', type=int, nargs='+', default=[100, 101, 102, 103])
    ap.add_argument('--budgets', nargs='+', default=list(BUDGETS))
    ap.add_argument('--allocs', nargs='+', default=['full', 'uniform_2', 'skewed_16', 'zero'])
    ap.add_argument('--stop', default=None, help='HH:MM (UTC, today): start no model after it')
    a = ap.parse_args()
    if a.what == 'train':
        stop = None
        if a.stop:
            h, m = map(int, a.stop.split(':')); t = time.gmtime()
            stop = time.mktime((t.tm_year, t.tm_mon, t.tm_mday, h, m, 0, 0, 0, 0)) - time.timezone
        train(a.seeds, a.budgets, a.allocs, stop)
    else:
        r = rule(); (OUT / 'rule.json').write_text(json.dumps(r, indent=1) + '\n'); print(json.dumps(r, indent=1))

if __name__ == '__main__': main()
