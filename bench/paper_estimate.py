"""Estimated wall time of `eb-reproduce --scale paper --device cpu --workers 2` for the untrimmed paper scale (the
ladder's trained γ grid at all 10 values, attention_rank's restarts at every r) with the trainer's work-saving
rules and the budgets of issues 24/25 as far as they are known (assumptions listed in the section it writes).

Inputs, all measured on this machine: bench/member_step.jsonl (seconds per member-step of each trained class, alone
and beside a second worker: `python bench/member_step.py [--pair]`), bench/stopping_check.jsonl (work with the rules
over work without, per class: `python bench/stopping_check.py ...`), the published records' wall_s (results/paper)
scaled by this machine's speed, which this script measures by re-timing a few published configs (about 1 minute).

Usage: python bench/paper_estimate.py [--write]      (--write: the section of BENCHMARKS.md named below)"""
from __future__ import annotations
import argparse, heapq, json, statistics, sys, time
from pathlib import Path
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / 'bench'))
from entropic_bound.theorems import ladder as la, attention_rank as ar, linear_bound as lb, frontier as fr
from paper_cost import write_section
HEAD = '## Paper scale, untrimmed, with the work-saving rules: estimated wall time'
RULES = dict(tau=1e-7, rho=1e-3, every=50, anneal=100)      # the rules the work ratios were measured with

def jsonl(name:str) -> list:
    p = ROOT / 'bench' / name
    return [json.loads(l) for l in p.read_text().splitlines() if l.strip()] if p.exists() else []

def published(sweep:str) -> list:
    "(config, wall_s) of every published record of a sweep."
    return [(r['config'], r['wall_s']) for r in (json.loads(p.read_text()) for p in
            sorted((ROOT / 'results' / 'paper' / sweep).glob('*.json')))]

def machine_factor() -> tuple:
    "This machine's time over the published time, median over a few re-timed configs (one thread)."
    probes = [('ladder/static', la.static_experiment, 4), ('ladder/bias', la.ls_bias_experiment, 2),
              ('frontier/cell', fr.frontier_experiment, 12), ('linear_bound/finite', lb.finite_experiment, 3)]
    ratios = []
    for sweep, fn, n in probes:
        recs = published(sweep)
        for cfg, wall in recs[:: max(1, len(recs) // n)][:n]:
            t0 = time.perf_counter(); fn(dict(cfg)); ratios.append((time.perf_counter() - t0) / max(wall, 1e-3))
    return statistics.median(ratios), len(ratios)

def step_cost(kind:str, d:int, pair:bool) -> float:
    "Seconds per member-step of a trained class (the mean of full and quarter ensembles: the rules shrink it)."
    now = [r for r in jsonl('member_step.jsonl') if r.get('path') != 'mixing']     # the trainer's default paths
    rows = [r for r in now if r['kind'] == kind and r['d'] == d and r['pair'] == pair]
    if not rows: rows = [r for r in now if r['kind'] == kind and r['d'] == d]
    if not rows: raise SystemExit(f"no member-step timing for {kind} d={d}: run bench/member_step.py first")
    r = rows[-1]
    return (r['s_per_member_step'] + r['s_per_member_step_quarter']) / 2

def fields(tag:str) -> dict:
    "The class of a stopping_check row from its sweep tag: 'ladder/capacity softmax γ=0.25 β=4' -> dict."
    words = tag.split()
    out = dict(sweep=words[0].split('/')[0], kind=words[1])
    for w in words[2:]:
        if '=' in w: k, v = w.split('='); out[k] = float(v)
    return out

def hard(sweep:str, kind:str, beta:float, gamma:float=None, d:int=None, k:int=None) -> bool:
    "The classes whose restarts do not agree and whose members stall (published records): the whole budget runs."
    if kind != 'softmax' or beta != 16: return False
    return gamma <= .02 if sweep == 'ladder' else (d == 8 and k == 3)

def work_ratio(sweep:str, kind:str, beta:float, gamma:float=None, d:int=None, k:int=None) -> tuple:
    "(largest measured work ratio of the class's family, the rows it came from); 1 where none was measured."
    h = hard(sweep, kind, beta, gamma, d, k)
    m = []
    for r in jsonl('stopping_check.jsonl'):
        if any(r.get(x) != v for x, v in RULES.items()): continue
        c = fields(r['sweep'])
        if c['sweep'] != sweep or c['kind'] != kind: continue
        if hard(sweep, c['kind'], c.get('β'), c.get('γ'), c.get('d'), c.get('k')) == h: m.append(r)
    if not m: return 1.0, 'not measured: the whole budget'
    return max(r['work_ratio'] for r in m), '; '.join(sorted({r['sweep'] for r in m}))

def trained_configs() -> list:
    "(sweep, label, seconds alone, seconds beside a second worker) of every trained-ensemble config."
    out, S = [], la.ladder_sizes('paper')
    for kind, g, b in la._points(S, S['gammas']):                          # all 10 γ's (issue 28)
        if kind.startswith('static'): out.append(('ladder/capacity', f'{kind}', 3.0, 3.0)); continue
        E = len(S['teacher_seeds']) * len(S['sizes']) * S['seeds']
        w, _ = work_ratio('ladder', kind, b, g)
        base = E * S['steps'] * w
        out.append(('ladder/capacity', f'{kind} γ={g:g} β={b:g}', base * step_cost(kind, S['d'], False),
                    base * step_cost(kind, S['d'], True)))
    for c in ar.capacity_configs('paper', 'cpu'):                         # restarts at every r (issue 25)
        k = len(c['spectrum'])
        E = len(c['ranks']) * c['restarts'] * len(c['teacher_seeds'])
        w, _ = work_ratio('attention_rank', c['kind'], c['beta'], d=c['d'], k=k)
        base = E * c['steps'] * w
        out.append(('attention_rank/capacity', f"{c['kind']} d={c['d']} β={c['beta']:g} k={k}",
                    base * step_cost(c['kind'], c['d'], False), base * step_cost(c['kind'], c['d'], True)))
    return out

def other_configs(f:float, pair:float) -> list:
    "Every other config: its published wall time × the machine factor (budget changes noted in ASSUMED)."
    out = []
    for sweep in ('linear_bound/population', 'linear_bound/finite', 'linear_bound/trained_vs_closed_form',
                  'linear_bound/data_only', 'ladder/static', 'ladder/length', 'ladder/bias', 'attention_rank/recovery',
                  'frontier/cell', 'real_heads/minilm', 'real_heads/lengths'):
        scale = dict(**{'linear_bound/population': 40 / 25, 'attention_rank/recovery': 1.2})   # see ASSUMED
        for cfg, wall in published(sweep):
            t = (scale[sweep] if sweep == 'linear_bound/population' else wall * f * scale.get(sweep, 1))
            out.append((sweep, '', t, t * pair))
    out.append(('ladder/static', 'n for the smallest γ (issue 24 item 8)', 70 * f, 70 * f * pair))
    return out

ASSUMED = [
    "ladder/capacity: the trained γ grid is all 10 γ's of the static grid (40 attention configs + 2 static), "
    "75 members "
    "(5 teachers × 5 sizes × 3 seeds), 3000 Adam steps, batch 256 (today's budget; issue 24 changes its tolerance, "
    "not its budget).",
    "attention_rank/capacity: restarts (8) at every r (issue 25 item 1): 5 teachers × (k + 1) ranks × 8 = 160 "
    "(k = 3) "
    "or 240 (k = 5) members, 3000 steps. More restarts or a polish at β = 16, d = 8 (item 2) are not costed.",
    "attention_rank/recovery: recorded every step (issue 25 item 3): published time × 1.2.",
    "linear_bound/population: 40 s for 25 records (the issue-24 helper's measurement of its derived budgets).",
    "linear_bound/underdetermined: 24000 GD steps (the issue-24 helper's probe), timed here with the one-GEMM static "
    "mixer; linear_bound/gd: 8000 steps, timed here.",
    "everything else: the published wall time (Intel Xeon run, partly under contention) × this machine's factor.",
    "work ratios: a class without its own stopping_check measurement takes the largest ratio measured for its "
    "family (ladder β ≤ 4 / linear; attention_rank β ≤ 4 / linear); the hard classes "
    "(ladder softmax β = 16 at γ ≤ 0.02, "

    "attention_rank softmax β = 16, d = 8, k = 3) take theirs, or the whole budget if unmeasured.",
    "--workers 2: each worker is slowed by the factor measured with a second copy running (member_step.py --pair); "
    "the schedule is longest-first over all configs of all sweeps (phase B's planning pass), and, for comparison, "
    "sweep after sweep (each sweep a barrier, as the runner does today).",
]

def timed_trainers(pair:float) -> list:
    "linear_bound's GD sweeps, timed here at a few hundred steps and extrapolated (the new static mixer)."
    out = []
    for name, cfgs, fn, steps in (('linear_bound/underdetermined', lb.underdetermined_configs('paper', 'cpu'),
                                   lb.underdetermined_experiment, 24000),
                                  ('linear_bound/gd', lb.gd_configs('paper', 'cpu'), lb.gd_experiment, None)):
        for cfg in cfgs:
            T = lambda n: (lambda t0: (fn(dict(cfg, steps=n)), time.perf_counter() - t0)[1])(time.perf_counter())
            t1, t2 = T(100), T(400)
            per = max(t2 - t1, 0) / 300
            n = steps or cfg['steps']
            t = t1 + per * (n - 100)
            out.append((name, f'{n} steps', t, t * pair))
    return out

def lpt(times:list, workers:int=2) -> float:
    load = [0.] * workers
    for t in sorted(times, reverse=True): heapq.heapreplace(load, load[0] + t)
    return max(load)

def main(argv=None):
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument('--write', action='store_true')
    a = a.parse_args(argv)
    torch.set_num_threads(1)
    f, nf = machine_factor()
    now = [r for r in jsonl('member_step.jsonl') if r.get('path') != 'mixing']
    alone = [r for r in now if not r['pair']]
    pairs = {(r['kind'], r['d']): r['s_per_member_step'] for r in now if r['pair']}
    pair = statistics.median([pairs[(r['kind'], r['d'])] / r['s_per_member_step'] for r in alone
                              if (r['kind'], r['d']) in pairs]) if pairs else 1.0
    rows = trained_configs() + other_configs(f, pair) + timed_trainers(pair)
    sweeps = {}
    for s, lab, t1, t2 in rows: sweeps.setdefault(s, []).append((t1, t2))
    serial = sum(t for _, _, t, _ in rows)
    wall_lpt = lpt([t2 for _, _, _, t2 in rows])
    wall_barrier = sum(lpt([t2 for _, t2 in v]) for v in sweeps.values())
    L = [HEAD, '',
         f"Machine: this 2-core VM (AMD EPYC, torch {torch.__version__}), {time.strftime('%Y-%m-%d')}; "
         "`python bench/paper_estimate.py --write`. Machine factor (this machine's time over the published run's, "
         f"median of {nf} re-timed cheap configs): {f:.2f}. Slowdown of a worker beside a second one: {pair:.2f}. "
         "Timings were taken on a machine shared with five other sessions: read them to ±20%.", '',
         '| sweep | configs | compute, 1 worker (s) | longest config (s) |', '|---|---|---|---|']
    for s, v in sorted(sweeps.items(), key=lambda kv: -sum(t for t, _ in kv[1])):
        L.append(f"| {s} | {len(v)} | {sum(t for t, _ in v):.0f} | {max(t for t, _ in v):.0f} |")
    L += [f"| **all** | {len(rows)} | **{serial:.0f} ({serial / 3600:.2f} h)** | |", '',
          f"**`--workers 2`, longest first over all sweeps: {wall_lpt / 3600:.2f} h wall**; sweep after sweep (each a "
          f"barrier): {wall_barrier / 3600:.2f} h. Goal ≤ 2 h: **{'met' if wall_lpt <= 7200 else 'not met'}** "
          "(estimate).", '', "Assumptions:", ''] + [f"- {x}" for x in ASSUMED] + ['', "Trained classes:", '']
    for s, lab, t1, _ in rows:
        if s.endswith('capacity') and not lab.startswith('static'):
            kind = lab.split()[0]
            parts = dict(p.split('=') for p in lab.split()[1:])
            w, src = (work_ratio('ladder', kind, float(parts['β']), float(parts['γ'])) if s.startswith('ladder') else
                      work_ratio('attention_rank', kind, float(parts['β']), d=int(parts['d']), k=int(parts['k'])))
            L.append(f"- {s} {lab}: {t1:.0f} s (work ratio {w:.3f}, from {src})")
    print('\n'.join(L))
    if a.write: write_section(L, HEAD)

if __name__ == '__main__': main()
