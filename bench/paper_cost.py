"""Estimated CPU cost of `eb-reproduce --scale paper --device cpu`: one config per size class of every experiment
timed (trainers at reduced step counts, extrapolated linearly in steps), times the number of configs of that class.

Usage: python bench/paper_cost.py [--threads N] [--budget-s S] [--cap-s S]
Prints the estimate. BENCHMARKS.md, section "The paper scale's compute", names it; the estimate it gave before the
paper scale ran (10.4 h serial) is in CHANGELOG.md's benchmarks history. `paper_measured.py` imports its FLOP counts."""
from __future__ import annotations
import argparse, heapq, math, platform, signal, statistics, sys, tempfile, time
from pathlib import Path
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from entropic_bound.theorems import linear_bound as lb, ladder as la, attention_rank as ar, frontier as fr, real_heads as rh
from entropic_bound.harness.experiment import ResultsCache
sys.path.insert(0, str(ROOT / 'bench'))
from run import matmul_rate, head_flops        # the trainer benchmark's GEMM rate and FLOP count, not copies

HEAD = '## Paper scale on this CPU: estimated cost'
# keys that do not change the amount of work (values, seeds, step sizes): configs differing only there share a class
NOT_SIZE = {'teacher_seed', 'seed', 's_min', 'beta', 'sigma', 'spectrum', 'gamma', 'value_rank', 'name', 'lr', 'init',
            'cov_rho', 'optimizer', 'device', 'record_every', 'inits'}

def experiments(dev) -> list:
    "(name, configs, fn) of every sweep `reproduce` runs at the paper scale, in the order it runs them."
    sc, out = 'paper', []
    out += [('linear_bound/population', lb.population_configs(sc, dev), lb.population_experiment),
            ('linear_bound/finite', lb.finite_configs(sc), lb.finite_experiment),
            ('linear_bound/trained_vs_closed_form', lb.trained_vs_closed_form_configs(sc), lb.trained_vs_closed_form),
            ('linear_bound/gd', lb.gd_configs(sc, dev), lb.gd_experiment),
            ('linear_bound/underdetermined', lb.underdetermined_configs(sc, dev), lb.underdetermined_experiment),
            ('linear_bound/data_only', lb.data_only_configs(sc, dev), lb.data_only_experiment),
            ('ladder/static', la.static_configs(sc), la.static_experiment),
            ('ladder/capacity', la.capacity_configs(sc, dev), la.capacity_experiment),
            ('ladder/length', la.length_configs(sc), la.length_experiment),
            ('ladder/bias', la.bias_configs(sc), la.ls_bias_experiment),
            ('attention_rank/capacity', ar.capacity_configs(sc, str(dev)), ar.capacity_experiment),
            ('attention_rank/recovery', ar.recovery_configs(sc, str(dev)), ar.recovery_experiment)]
    out += [(f'frontier/cell ({g})', c, fr.frontier_experiment) for g, c in fr.frontier_configs(sc).items()]
    return out

def size_key(cfg:dict) -> str:
    return repr(sorted((k, repr(v)) for k, v in cfg.items() if k not in NOT_SIZE))

def heuristic(cfg:dict) -> float:
    "A rough work measure, only to order classes (the largest is timed first)."
    g = lambda k: cfg.get(k) if isinstance(cfg.get(k), (int, float)) and cfg.get(k) else 1
    n = max(g('n'), sum(cfg.get('ns') or [1]), g('batch'))
    steps = g('steps_static') if str(cfg.get('kind')).startswith('static') else g('steps')
    return g('L') ** 2 * g('d') * n * steps * g('draws') * g('restarts') * (2 if 'softmax' in str(cfg.get('kind')) else 1)

class Timeout(Exception): pass

def _alarm(*_): raise Timeout()

def timed(fn, cfg, cap:float) -> float:
    "Wall seconds of fn(cfg), or raise Timeout after `cap` seconds."
    signal.signal(signal.SIGALRM, _alarm); signal.setitimer(signal.ITIMER_REAL, cap)
    try:
        t0 = time.perf_counter(); fn(dict(cfg)); return time.perf_counter() - t0
    finally: signal.setitimer(signal.ITIMER_REAL, 0)

def measure(fn, cfg:dict, cap:float) -> tuple:
    "(estimated seconds of the full config, how it was measured, seconds per step or None)."
    steps = cfg.get('steps')
    if isinstance(steps, int) and steps >= 200:     # trainer: two reduced runs, time linear in steps
        r1 = max(20, steps // 80) / steps
        def at(r):
            c = dict(cfg, steps=max(1, round(steps * r)))
            if 'steps_static' in cfg: c['steps_static'] = max(1, round(cfg['steps_static'] * r))
            return timed(fn, c, cap)
        t1, t2 = at(r1), at(2 * r1)
        slope = max(t2 - t1, 0.) / r1               # seconds per full-config unit of steps
        base = max(t1 - slope * r1, 0.)
        s1 = max(1, round(steps * r1))
        return base + slope, f"steps {s1} and {2 * s1} of {steps}, extrapolated", slope / steps
    return timed(fn, cfg, cap), 'full config', None

def lpt(times:list, workers:int) -> float:
    "Makespan of the longest-first greedy schedule of `times` on `workers` processes."
    load = [0.] * workers
    for t in sorted(times, reverse=True): heapq.heapreplace(load, load[0] + t)
    return max(load)

def trainer_ranks(name:str, cfg:dict):
    "Member head dimensions of a trained-ensemble config (None where the FLOP count does not apply)."
    if name == 'ladder/capacity' and not cfg['kind'].startswith('static'):
        return [r for _ in cfg['teacher_seeds'] for r in cfg['sizes'] for _ in range(cfg.get('first_seed', 0), cfg['seeds'])]
    if name == 'attention_rank/capacity':
        k = len(cfg['spectrum'])
        return [r for r in cfg['ranks'] for _ in range(cfg['restarts'] if r < k else 1) for _ in cfg['teacher_seeds']]
    return None

def real_heads_cost(cap:float) -> list:
    "real_heads runs its two configs in the main process (local=True): timed for real, in a scratch cache."
    if not rh.available(): return []
    with tempfile.TemporaryDirectory() as tmp:
        cache = ResultsCache(tmp, scale='paper', device='cpu')
        signal.signal(signal.SIGALRM, _alarm); signal.setitimer(signal.ITIMER_REAL, cap)
        t0 = time.perf_counter()
        try: rh.reproduce(cache); note = 'full run'
        except Timeout: note = f'stopped at the {cap:.0f} s cap: lower bound'
        except Exception as e: note = f'claims/figure raised {type(e).__name__} after the records'
        finally: signal.setitimer(signal.ITIMER_REAL, 0)
        wall = time.perf_counter() - t0
        recs = cache.records('real_heads/minilm') + cache.records('real_heads/lengths')
    return [dict(name='real_heads (minilm + lengths)', n=2, classes=1, timed=1, per=wall / 2, total=wall,
                 times=[wall], how=f'{note}, MiniLM load included, {len(recs)} records', biggest=None)]

def main(argv=None):
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument('--threads', type=int, default=1, help='torch threads (1: what each of --workers 2 gets)')
    a.add_argument('--budget-s', type=float, default=900, help='total seconds of timing runs')
    a.add_argument('--cap-s', type=float, default=240, help='most seconds of one timing run')
    a = a.parse_args(argv)
    torch.set_num_threads(a.threads)
    dev, t_start = torch.device('cpu'), time.perf_counter()
    exps = experiments(dev)
    plan = []                                       # (experiment index, class configs), largest class first
    for i, (name, cfgs, fn) in enumerate(exps):
        cls = {}
        for c in cfgs: cls.setdefault(size_key(c), []).append(c)
        plan.append(sorted(cls.values(), key=lambda cs: -heuristic(cs[0])))
    meas = [dict() for _ in exps]                   # class index -> (seconds, how, sec/step)
    rounds = max(len(p) for p in plan)
    order = list(range(len(exps)))
    for j in range(rounds):                         # round j: the j-th largest class of every experiment
        if j == 1:                                  # then the experiments that cost most first
            order.sort(key=lambda i: -(meas[i][0][0] * len(exps[i][1]) if not math.isnan(meas[i][0][0]) else 1e12))
        for i in order:
            name, _, fn = exps[i]
            if j >= len(plan[i]): continue
            left = a.budget_s - (time.perf_counter() - t_start)
            if j > 0 and left < 5: continue
            cfg = plan[i][j][0]
            try: meas[i][j] = measure(fn, cfg, min(a.cap_s, max(left, 30)))
            except Timeout: meas[i][j] = (float('nan'), f'over the {a.cap_s:.0f} s cap', None)
            print(f"{name} class {j + 1}/{len(plan[i])} ({len(plan[i][j])} configs): "
                  f"{meas[i][j][0]:.2f} s ({meas[i][j][1]})", flush=True)
    rows = []
    for i, (name, cfgs, fn) in enumerate(exps):
        timed_ = [v[0] for v in meas[i].values() if not math.isnan(v[0])]
        fallback = max(timed_) if timed_ else float('nan')
        times = []
        for j, cs in enumerate(plan[i]):
            t = meas[i].get(j, (fallback,))[0]
            times += [fallback if math.isnan(t) else t] * len(cs)
        hows = sorted({v[1] for v in meas[i].values()})
        rows.append(dict(name=name, n=len(cfgs), classes=len(plan[i]), timed=len(meas[i]), times=times,
                         per=max(timed_) if timed_ else float('nan'), total=sum(times), how='; '.join(hows),
                         biggest=plan[i][0][0], meas=meas[i].get(0),
                         cls=[(cs[0], len(cs), meas[i].get(j)) for j, cs in enumerate(plan[i])]))
    rows += real_heads_cost(a.cap_s)
    serial = sum(r['total'] for r in rows)
    two = sum(lpt(r['times'], 2) for r in rows)     # sweeps run one after another: each is a barrier
    top = max(rows, key=lambda r: r['total'])
    # matmul fraction at the dominant trainer size
    rate, frac = matmul_rate(), []
    for r in rows:
        for c, _, m in r.get('cls', []):
            if m and m[2] and (ranks := trainer_ranks(r['name'], c)):
                f = head_flops(c['L'], c['d'], c['d'], ranks, c['batch']) / m[2] / 1e9
                frac.append((r['name'], c, len(ranks), f))
    th = a.threads
    L = [HEAD, '',
         f"Machine: {platform.machine()}, {len(__import__('os').sched_getaffinity(0))} cores, torch {torch.__version__}, "
         f"{time.strftime('%Y-%m-%d')}; {th} torch thread{'s' * (th > 1)}, nothing else running (`python "
         f"bench/paper_cost.py --threads {th}`). This estimate runs no paper-scale sweep: the configs of every sweep that "
         "`reproduce(cache)` runs at `scale='paper'` are grouped into size classes (configs that differ only in "
         "seeds, β, γ, σ, spectra or step sizes); the largest class of every experiment, then the next ones while the "
         f"timing budget ({a.budget_s:.0f} s) lasts, has one config timed (a class left untimed is charged the "
         "slowest timed class of its experiment: an overestimate). Trainers (configs with ≥ 200 `steps`) are timed "
         "at 1/80 and 2/80 of their steps and extrapolated linearly (set-up + per-step cost). Each time is one "
         "run, not a median: the two-point slope over a few dozen steps is noisy (repeated passes differ "
         "by up to 2× for one class), so read the totals as estimates to about ±30%.", '',
         f"| experiment | configs | size classes (timed) | seconds per config, slowest class ({th} thread) | "
         "estimated total (s) | how timed |", '|---|---|---|---|---|---|']
    L += [f"| {r['name']} | {r['n']} | {r['classes']} ({r['timed']}) | {r['per']:.2f} | {r['total']:.0f} | {r['how']} |"
          for r in rows]
    L += [f"| **all** | {sum(r['n'] for r in rows)} | | | **{serial:.0f} ({serial / 3600:.2f} h)** | |", '']
    ok = two <= 4 * 3600
    L += [f"**Serial, {th} thread:** {serial / 3600:.2f} h. **`--workers 2` (1 thread each):** about "
          f"{two / 3600:.2f} h wall (longest-first schedule of each sweep's configs on 2 workers, sweeps one after "
          f"another; assumes two 1-thread workers each run as fast as one alone). Goal ≤ 4 h with `--workers 2`: "
          f"**{'met' if ok else 'not met'}**.", '']
    share = sorted(rows, key=lambda r: -r['total'])[:3]
    L += ["Where the time goes: " + '; '.join(f"{r['name']} {100 * r['total'] / serial:.0f}%" for r in share) + '. '
          f"Largest config of {top['name']}: " + ', '.join(f"{k}={v}" for k, v in (top['biggest'] or {}).items()
                                                         if k in ('kind', 'L', 'd', 'n', 'ns', 'batch', 'steps',
                                                                  'steps_static', 'sizes', 'seeds', 'ranks',
                                                                  'restarts', 'teacher_seeds', 'draws')) + '.', '']
    L += [f"Dense fp32 matmul rate (512³ GEMM, {th} thread): **{rate:.1f} GFLOP/s**. Trainer rate from the per-step "
          "slope of the timed config (forward + backward FLOPs counted as in the trainer benchmark above):", '']
    L += [f"- {n} ({c.get('kind')}, L={c['L']}, d={c['d']}, batch={c['batch']}, E={E} members): "
          f"{f:.1f} GFLOP/s, **{100 * f / rate:.1f}%** of the matmul rate" for n, c, E, f in frac] + ['']
    keys = ('kind', 'L', 'd', 'ranks', 'sizes', 'restarts', 'batch', 'steps', 'steps_static')
    for r in sorted(rows, key=lambda r: -r['total'])[:2]:
        L += [f"Size classes of {r['name']}:", '']
        L += [f"- {', '.join(f'{k}={c[k]}' for k in keys if k in c)}: {n} configs, "
              + (f"{m[0]:.0f} s each ({m[1]})" if m and not math.isnan(m[0]) else
                 f"not timed{' (over the cap)' if m else ''}, charged {r['per']:.0f} s each")
              for c, n, m in r['cls']] + ['']
    L += [f"Timing runs took {time.perf_counter() - t_start:.0f} s in all."]
    print('\n'.join(L))

if __name__ == '__main__': main()
