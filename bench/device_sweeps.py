#!/usr/bin/env python
"""The paper scale's sweeps on one GPU, time-boxed and resumable: every sweep of every theorem that a worker can run
(real_heads and minilm_ranks need model weights a lent device lacks: they stay on the CPU), costliest first by the
published CPU record's `wall_s`, each record stored under `--out` as soon as it finishes (`ResultsCache`, the same
records `eb-reproduce` writes), no config started once `--budget` seconds have passed. A second call with the same
`--out` reads what is there and continues: a run cut short by the device's 10-minute limit loses nothing.
Needs torch, numpy and pandas (no nbdev).
BENCHMARKS.md, section "The paper scale on a GPU".

    python bench/device_sweeps.py --device cuda --out $OUT/results --budget 540       # on the lent GPU, again to resume
    python bench/device_sweeps.py --device cpu --scale quick --only frontier --limit 4 --out /tmp/d   # a CPU subset
    python bench/device_sweeps.py --compare results/device/results       # here: CUDA records against the CPU ones
"""
import argparse, json, math, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SWEEPS = ('ladder/capacity', 'attention_rank/capacity')            # compared by `compare`
NEEDS_WEIGHTS = ('real_heads', 'minilm_ranks')

def _plain(c:dict) -> str:
    "A config without its device: the CPU record and the CUDA record of one config compare equal."
    return json.dumps({k: v for k, v in c.items() if k != 'device'}, sort_keys=True)

def cpu_records(sweep:str, root:Path=ROOT / 'results' / 'paper') -> dict:
    "{config without device: record} of the published CPU records of a sweep."
    return {_plain(r['config']): r for p in sorted((root / sweep).glob('*.json')) for r in [json.loads(p.read_text())]}

def jobs(cache, only=None, cheapest:bool=False, limit:int=None) -> list:
    "(experiment, config, fn, cost) of every sweep a worker can run, costliest first (or cheapest, for a CPU subset)."
    from entropic_bound.harness import cli
    names = [n for n in (only or cli.EXPERIMENTS) if n not in NEEDS_WEIGHTS]
    q = sorted(cli.queue(cache, names), key=lambda j: j[3] if cheapest else -j[3])    # stable: ties keep sweep order
    return q[:limit] if limit else q

def run(device:str, out:str, budget:float, scale:str='paper', only=None, cheapest:bool=False, limit:int=None):
    import torch
    from entropic_bound.harness.experiment import ResultsCache
    t_start = time.time()
    cache = ResultsCache(out, scale=scale, device=device)
    todo = jobs(cache, only, cheapest, limit)
    have = sum(cache.get(e, c) is not None for e, c, _, _ in todo)
    log = Path(out) / 'device_sweeps.jsonl'
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name() if device == 'cuda' else device}; {scale} scale, "
          f"{len(todo)} configs ({have} stored before: read, not run), budget {budget:.0f} s", flush=True)
    done = 0
    for e, c, fn, cpu_s in todo:
        if cache.get(e, c) is not None: continue                      # stored by an earlier call: resumed past it
        if time.time() - t_start > budget: break
        t0 = time.time()
        rec = cache.run(e, c, fn)
        if device == 'cuda': torch.cuda.synchronize()
        row = dict(sweep=e, key=rec['key'], wall_s=round(time.time() - t0, 2), cpu_wall_s=cpu_s)
        print(json.dumps(row), flush=True); done += 1
        with open(log, 'a') as f: f.write(json.dumps(row) + '\n')
    left = sum(cache.get(e, c) is None for e, c, _, _ in todo)
    print(f"done: {done} computed in {time.time() - t_start:.0f} s; {left} of {len(todo)} left"
          f"{' (run the same command again to continue)' if left else ''}", flush=True)
    return left

def compare(folder:str):
    "Per CUDA record: its wall time against the CPU record's, and the largest difference of their verdict inputs."
    import numpy as np
    for sweep in SWEEPS:
        cpu, n = cpu_records(sweep), 0
        for p in sorted((Path(folder) / 'paper' / sweep).glob('*.json')):
            g = json.loads(p.read_text()); c = g['config']; r = cpu.get(_plain(c))
            if r is None: print(sweep, 'no CPU record for', _plain(c)[:120]); continue
            a, b = np.asarray(r['metrics']['relative'], float), np.asarray(g['metrics']['relative'], float)
            if sweep == 'ladder/capacity':
                same = r['metrics']['capacity'] == g['metrics']['capacity']
                what = f"capacity CPU {r['metrics']['capacity']} CUDA {g['metrics']['capacity']}"
            else:
                tol = 1e-3      # any run's side of the achieved level: compare which runs are below a decade of it
                same = bool(((a <= tol) == (b <= tol)).all())
                what = f"runs at ≤ 1e-3: CPU {int((a <= tol).sum())}, CUDA {int((b <= tol).sum())} of {a.size}"
            both = (a > 1e-6) & (b > 1e-6)                              # relative change where both are above round-off
            rel = float(np.max(np.abs(a[both] - b[both]) / a[both])) if both.any() else 0.
            print(f"{sweep} {c['kind']} β={c['beta']} γ={c.get('gamma')} d={c['d']}: CUDA {g['wall_s']:.1f} s, "
                  f"CPU {r['wall_s']:.1f} s ({r['wall_s'] / g['wall_s']:.1f}×); {what}; "
                  f"{'same' if same else 'DIFFERENT'}; largest relative change above 1e-6: {rel:.2g}")
            n += 1
        print(f"{sweep}: {n} configs compared")

if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--device', default='cuda')
    ap.add_argument('--out', default=str(ROOT / 'results' / 'device' / 'results'))
    ap.add_argument('--budget', type=float, default=300., help='start no config after this many seconds')
    ap.add_argument('--scale', default='paper', choices=('quick', 'paper'))
    ap.add_argument('--only', default=None, help='comma-separated theorems (default: all but ' + ', '.join(NEEDS_WEIGHTS) + ')')
    ap.add_argument('--limit', type=int, default=None, help='the first N configs only (a subset, to test the script)')
    ap.add_argument('--cheapest', action='store_true', help='cheapest first (a CPU subset), not costliest')
    ap.add_argument('--compare', default=None, metavar='FOLDER', help='compare the CUDA records under FOLDER')
    a = ap.parse_args()
    if a.compare: compare(a.compare)
    else: sys.exit(1 if run(a.device, a.out, a.budget, a.scale, a.only and a.only.split(','), a.cheapest, a.limit) else 0)
