"""The work-saving rules of `fit` at the paper's sizes: one capacity config trained as today (every member, the whole
budget) and with the rules (a member leaves at `tol` = τ · its teacher's null excess; a group of restarts leaves when
its members agree within ρ on a fixed batch and stopped moving), on the same data. Prints the work and wall time of
both, and what the records would say: per teacher the capacity reading (ladder) or the smallest r reaching 1e-3
(attention_rank), the largest relative change of a deficient member's held-out excess, the largest held-out excess of
a member that left at the tolerance. Members train independently, so a subset of the teachers is the same test
(`--teachers`, default 1), at a fraction of the cost.
BENCHMARKS.md, section "Work-saving rules".

Usage: python bench/stopping_check.py ladder kind=softmax gamma=0.25 beta=4 [--teachers 1] [--tau 1e-7] [--rho 1e-3]
       python bench/stopping_check.py attention_rank kind=softmax d=8 beta=4 k=5 [--all-restarts]
Appends one JSON line per run to bench/stopping_check.jsonl."""
from __future__ import annotations
import argparse, json, platform, sys, time
from pathlib import Path
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from entropic_bound.theorems import ladder as la, attention_rank as ar
from entropic_bound.models import AttentionHead
from entropic_bound.tasks import AttentionTask, Teachers
from entropic_bound.train import fit, evaluate
from entropic_bound.harness.experiment import minimal_capacity

def ladder_problem(opts:dict, nt:int) -> dict:
    "Ladder capacity config (paper) for the first nt teachers: members (teacher, size, seed), groups (teacher, size)."
    kind, g, b = opts.get('kind', 'softmax'), float(opts.get('gamma', 1)), float(opts.get('beta', 1))
    cfg = next(c for c in la.capacity_configs('paper', 'cpu') if c['kind'] == kind)   # the sizes of every point
    tasks = [la.rung_task(kind, cfg['L'], cfg['d'], cfg['k'], g, b, s) for s in cfg['teacher_seeds'][:nt]]
    S = cfg['seeds']
    members = [(t, r, s) for t in range(nt) for r in cfg['sizes'] for s in range(S)]
    T, t0 = Teachers(tasks, members=[t for t, _, _ in members]), tasks[0]
    per = len(cfg['sizes']) * S                      # the seed of member e is e in the full config: teacher-major
    make = lambda: AttentionHead(t0.d, [r for _, r, _ in members], kind=kind, beta=b, gamma=g,
                                 pos=t0.pos if g < 1 else None, seeds=[per * t + i % per for i, (t, _, _) in
                                                                        enumerate(members)])
    kw = dict(steps=cfg['steps'], lr=3e-2, optimizer='adam', batch_size=cfg['batch'], lr_schedule='cosine',
              seed=cfg['teacher_seeds'][0], device='cpu')
    return dict(tag=f'ladder/capacity {kind} γ={g:g} β={b:g}', T=T, make=make, kw=kw, members=members,
                groups=[t * 100 + r for t, r, _ in members], ranks=[r for _, r, _ in members], k=cfg['k'],
                n_eval=2048, sizes=cfg['sizes'], nt=nt)

def attention_problem(opts:dict, nt:int, all_restarts:bool) -> dict:
    "attention_rank capacity config (paper): members (rank, restart, teacher), restarts below k or at every r."
    kind, d, b = opts.get('kind', 'softmax'), int(opts.get('d', 8)), float(opts.get('beta', 4))
    k = int(opts.get('k', 3))
    cfg = next(c for c in ar.capacity_configs('paper', 'cpu') if c['kind'] == kind and c['d'] == d
               and c['beta'] == b and len(c['spectrum']) == k)
    tasks = [AttentionTask(cfg['L'], d, cfg['spectrum'], kind=kind, beta=b, seed=s)
             for s in cfg['teacher_seeds'][:nt]]
    slots = [(r, s, t) for r in cfg['ranks'] for s in range(cfg['restarts'] if (r < k or all_restarts) else 1)
             for t in range(nt)]
    T = Teachers(tasks, members=[t for _, _, t in slots])
    make = lambda: AttentionHead(d, [r for r, _, _ in slots], kind=kind, beta=b,
                                 seeds=[1000 * s + t for _, s, t in slots])

    kw = dict(steps=cfg['steps'], lr=cfg['lr'], optimizer='adam', batch_size=cfg['batch'], lr_schedule='cosine',
              seed=1, device='cpu')
    return dict(tag=f"attention_rank/capacity {kind} d={d} β={b:g} k={k}{' (restarts at every r)' * all_restarts}",
                T=T, make=make, kw=kw, members=slots, groups=[t * 100 + r for r, _, t in slots],
                ranks=[r for r, _, _ in slots], k=k, n_eval=cfg['n_eval'], sizes=cfg['ranks'], nt=nt)

def train(P:dict, rules:dict|None) -> dict:
    "One run: wall seconds, member-steps, held-out relative excess per member, stopping steps."
    h = P['make']()
    extra = {} if rules is None else dict(tol=rules['tau'] * P['T'].null_excess(), groups=P['groups'],
                                          agree=rules['rho'], check_every=rules['every'],
                                          anneal=rules['anneal'])
    t0 = time.perf_counter()
    r = fit(h, P['T'], progress=False, **P['kw'], **extra)
    wall = time.perf_counter() - t0
    rel = evaluate(h, P['T'], n=P['n_eval'])['relative']
    return dict(wall=wall, work=r.work, rel=rel, stopped=r.stopped)

def readings(P:dict, rel:torch.Tensor, tol:float=1e-3) -> list:
    "Per teacher: the smallest size whose best restart reaches `tol` (the capacity reading of both sweeps)."
    out = []
    for t in range(P['nt']):
        best = [min(float(x) for x, (m, q) in zip(rel, zip(P['members'], P['ranks'])) if q == r and
                    (m[0] if P['tag'].startswith('ladder') else m[2]) == t) for r in P['sizes']]
        out.append(minimal_capacity(P['sizes'], best, tol=tol))
    return out

def compare(P:dict, full:dict, fast:dict, rules:dict) -> dict:
    "What the records would say, full budget against the rules."
    k, ranks, steps = P['k'], torch.tensor(P['ranks']), P['kw']['steps']
    low, left = ranks < k, fast['stopped'] < steps
    dev = fast['rel'][low] / full['rel'][low] - 1
    tol_left = left & ~low
    return dict(sweep=P['tag'], teachers=P['nt'], members=len(ranks), **rules,
                full_wall=round(full['wall'], 1), rules_wall=round(fast['wall'], 1), full_work=full['work'],
                rules_work=fast['work'], work_ratio=round(fast['work'] / full['work'], 4),
                capacity_full=readings(P, full['rel']), capacity_rules=readings(P, fast['rel']),
                deficient_change_max=float(dev.max()), deficient_change_min=float(dev.min()),
                left_at_tol_max=float(fast['rel'][tol_left].max()) if tol_left.any() else None,
                realizable_full_max=float(full['rel'][~low].max()), realizable_rules_max=float(fast['rel'][~low].max()),
                stopped_deficient_median=float(fast['stopped'][low].double().median()),
                stopped_realizable_median=float(fast['stopped'][~low].double().median()),
                host=platform.node(), date=time.strftime('%Y-%m-%d %H:%M'))

def main(argv=None):
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument('sweep', choices=['ladder', 'attention_rank'])
    a.add_argument('opts', nargs='*', help='key=value: kind, gamma, beta (ladder); kind, d, beta, k (attention_rank)')
    a.add_argument('--teachers', type=int, default=1)
    a.add_argument('--tau', type=float, default=1e-7, help='tolerance relative to the null excess')
    a.add_argument('--rho', type=float, default=1e-3, help='agreement and movement, relative')
    a.add_argument('--every', type=int, default=50, help='steps between agreement checks')
    a.add_argument('--anneal', type=int, nargs='+', default=[0],
                   help='steps of learning-rate decay before an agreed group leaves (one run per value)')
    a.add_argument('--all-restarts', action='store_true', help='attention_rank: restarts at every r (issue 25)')
    a.add_argument('--threads', type=int, default=1)
    a = a.parse_args(argv)
    torch.set_num_threads(a.threads)
    opts = dict(o.split('=', 1) for o in a.opts)
    P = ladder_problem(opts, a.teachers) if a.sweep == 'ladder' else attention_problem(opts, a.teachers, a.all_restarts)
    full = train(P, None)
    for an in a.anneal:
        rules = dict(tau=a.tau, rho=a.rho, every=a.every, anneal=an)
        row = compare(P, full, train(P, rules), rules)
        print(json.dumps(row), flush=True)
        with open(ROOT / 'bench' / 'stopping_check.jsonl', 'a') as f: f.write(json.dumps(row) + '\n')

if __name__ == '__main__': main()
