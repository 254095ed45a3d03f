#!/usr/bin/env python
"""Wall time of `eb-reproduce --scale paper --workers N` under two schedules, simulated from the published records'
per-config compute times (`wall_s`): sweep after sweep, each sweep's configs in their order (before issue 28's queue),
and one queue of every sweep's configs, costliest first (`ResultsCache.compute`, after). Greedy list scheduling: a free
worker takes the next config. Only the order changes: each config's time is its record's.
BENCHMARKS.md, section "The paper scale's compute".

    python bench/schedule_sim.py [--workers 2] [--records results/paper]
"""
import argparse, heapq, json, sys
from pathlib import Path
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

def makespan(times:list, workers:int) -> float:
    "Greedy list scheduling of `times`, in order, on `workers` machines: when the last one finishes."
    free = [0.] * workers
    for t in times: heapq.heapreplace(free, free[0] + t)
    return max(free)

def main(argv=None):
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument('--workers', type=int, default=2)
    a.add_argument('--records', default=str(ROOT / 'results' / 'paper'))
    a = a.parse_args(argv)
    from entropic_bound.harness.cli import EXPERIMENTS, theorem
    from entropic_bound.harness.experiment import config_key
    root, sweeps, missing = Path(a.records), [], 0
    for name in EXPERIMENTS:
        T = theorem(name)
        for s in T.sweeps.values():
            e, ts = T.experiment(s.name), []
            for c in T.configs(s.name, 'paper', 'cpu'):
                p = root / e / f"{config_key(e, c)}.json"
                if p.exists(): ts.append(json.loads(p.read_text())['wall_s'])
                else: missing += 1
            sweeps.append((e, ts, s.local))
    before = sum(makespan(ts, 1 if local else a.workers) for _, ts, local in sweeps)
    queued = sorted((t for _, ts, local in sweeps if not local for t in ts), reverse=True)
    after = makespan(queued, a.workers) + sum(sum(ts) for _, ts, local in sweeps if local)
    total = sum(sum(ts) for _, ts, _ in sweeps)
    print(f"{sum(len(ts) for _, ts, _ in sweeps)} configs with records ({missing} without), {total:.0f} s of compute; "
          f"--workers {a.workers}: sweep after sweep {before:.0f} s ({before / 3600:.2f} h), one queue costliest first "
          f"{after:.0f} s ({after / 3600:.2f} h); lower bound (compute / workers) {total / a.workers:.0f} s")

if __name__ == '__main__': main()
