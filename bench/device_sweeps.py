#!/usr/bin/env python
"""Paper-scale trained sweeps on a lent GPU, time-boxed (issue 28): the CUDA path's wall time per config and records
to compare with the CPU records of the same configs.

A lent device session has minutes, not hours: this runs the paper configs of the trained sweeps (ladder/capacity,
attention_rank/capacity) longest-first by their CPU record's `wall_s`, one at a time, and starts no config once
`--budget` seconds have passed since the script started. Every finished config is stored at once as a normal record
(`ResultsCache`, under `--out`), so a run cut short keeps what it finished. Needs torch, numpy and pandas (no nbdev).

    python bench/device_sweeps.py --device cuda --out $OUT/results --budget 300
    python bench/device_sweeps.py --compare results/device/results       # here: CUDA records against the CPU ones
"""
import argparse, json, math, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SWEEPS = ('ladder/capacity', 'attention_rank/capacity')

def _plain(c:dict) -> str:
    "A config without its device: the CPU record and the CUDA record of one config compare equal."
    return json.dumps({k: v for k, v in c.items() if k != 'device'}, sort_keys=True)

def cpu_records(sweep:str, root:Path=ROOT / 'results' / 'paper') -> dict:
    "{config without device: record} of the published CPU records of a sweep."
    return {_plain(r['config']): r for p in sorted((root / sweep).glob('*.json')) for r in [json.loads(p.read_text())]}

def run(device:str, out:str, budget:float):
    import torch
    from entropic_bound.harness.experiment import ResultsCache
    from entropic_bound import ladder, attention_rank
    t_start = time.time()
    fns = {'ladder/capacity': (ladder.capacity_configs, ladder.capacity_experiment),
           'attention_rank/capacity': (attention_rank.capacity_configs, attention_rank.capacity_experiment)}
    todo = []
    for sweep, (configs, fn) in fns.items():
        cpu = cpu_records(sweep)
        for c in configs('paper', device=device):
            r = cpu.get(_plain(c))
            todo.append((r['wall_s'] if r else math.inf, sweep, c, fn))
    todo.sort(key=lambda x: -x[0])                                  # longest first (by the CPU record)
    cache = ResultsCache(out, scale='paper', device=device)
    log = Path(out) / 'device_sweeps.jsonl'
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name() if device == 'cuda' else device}; "
          f"{len(todo)} configs, budget {budget:.0f} s", flush=True)
    for cpu_s, sweep, c, fn in todo:
        if time.time() - t_start > budget: break
        t0 = time.time()
        rec = cache.run(sweep, c, fn)
        if device == 'cuda': torch.cuda.synchronize()
        row = dict(sweep=sweep, key=rec['key'], wall_s=round(time.time() - t0, 2), cpu_wall_s=cpu_s,
                   config={k: c[k] for k in ('kind', 'beta', 'gamma', 'd', 'sizes', 'ranks', 'first_seed', 'seeds')
                           if k in c})
        print(json.dumps(row), flush=True)
        with open(log, 'a') as f: f.write(json.dumps(row) + '\n')
    print(f"done: {time.time() - t_start:.0f} s", flush=True)

def compare(folder:str):
    "Per CUDA record: its wall time against the CPU record's, and the largest difference of their verdict inputs."
    import numpy as np
    from entropic_bound import ladder
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
    ap.add_argument('--compare', default=None, metavar='FOLDER', help='compare the CUDA records under FOLDER')
    a = ap.parse_args()
    if a.compare: compare(a.compare)
    else: run(a.device, a.out, a.budget)
