"""Recompute the cheapest config of every sweep and compare it with its stored record: the experiment functions still
compute what the records hold (after code moved between modules, say), at a few seconds a sweep.

Usage: python .ci/spot_check.py [--scale quick] [--records results] [--only a,b] [--max-wall 60]
For each sweep of each discovered theorem, the config whose stored record took the least wall time (at most
--max-wall seconds) is computed again into a temporary folder; its metrics must equal the stored ones (floats to a
relative 1e-9, or 1e-12 absolute: the same code on the same kind of host gives the same bits up to round-off,
whose size depends on the thread count that summed it; another CPU may differ in the last digits). Exit 1 on any difference or failure; sweeps with no record that cheap
are listed as skipped."""
import argparse, json, math, sys, tempfile, time
import torch
from pathlib import Path
from entropic_bound.harness.cli import EXPERIMENTS, theorem
from entropic_bound.harness.experiment import ResultsCache, config_key

ATOL = 1e-12   # round-off: a noiseless residual (1e-14) differs with the thread count that summed it

def same(a, b, rtol:float=1e-9, path:str='') -> list:
    "Paths where two JSON values differ (floats to `rtol`)."
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys(): return [f"{path}: keys {sorted(set(a) ^ set(b))}"]
        return [d for k in a for d in same(a[k], b[k], rtol, f"{path}.{k}")]
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b): return [f"{path}: length {len(a)} vs {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in same(x, y, rtol, f"{path}[{i}]")][:3]
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            if (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=rtol, abs_tol=ATOL): return []
        return [f"{path}: {a!r} vs {b!r}"]
    return [] if a == b else [f"{path}: {a!r} vs {b!r}"]

def main(scale:str='quick', records:str='results', only:str=None, max_wall:float=60.) -> int:
    torch.set_num_threads(1)                    # as eb-reproduce's workers: one thread a config
    bad, n, skipped = [], 0, []
    names = only.split(',') if only else EXPERIMENTS
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            th = theorem(name)
            for sweep, s in th.sweeps.items():
                exp = th.experiment(sweep)
                stored = {}
                for c in th.configs(sweep, scale):
                    p = Path(records) / scale / exp / f"{config_key(exp, c)}.json"
                    if p.exists(): stored[p] = (json.loads(p.read_text()), c)
                cands = [(r['wall_s'], p) for p, (r, c) in stored.items() if r.get('wall_s', math.inf) <= max_wall]
                if not cands: skipped.append(exp); continue
                wall, p = min(cands, key=lambda t: t[0])
                rec, cfg = stored[p]
                t0 = time.time()
                try:
                    new = ResultsCache(tmp, scale, 'cpu').run(exp, cfg, s.experiment, local=s.local)
                    diff = same(new['metrics'], rec['metrics'])
                except Exception as e: diff = [f"raised {type(e).__name__}: {e}"]
                n += 1
                print(('ok  ' if not diff else 'DIFF') + f" {exp} {rec['key']} ({wall:.1f} s stored, {time.time() - t0:.1f} s now)")
                for d in diff[:5]: print('      ' + d)
                if diff: bad.append(exp)
    if skipped: print(f"skipped (no record under {max_wall:g} s): {', '.join(skipped)}")
    print(f"spot check: {n - len(bad)} of {n} sweeps recompute their stored record")
    return 1 if bad else 0

if __name__ == '__main__':
    a = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    a.add_argument('--scale', default='quick'); a.add_argument('--records', default='results')
    a.add_argument('--only'); a.add_argument('--max-wall', type=float, default=60.)
    o = a.parse_args()
    sys.exit(main(o.scale, o.records, o.only, o.max_wall))
