#!/usr/bin/env python
"""Per-cell wall and CPU times of one notebook as `nbdev_test` runs it (IN_TEST set, cells flagged `notest`/`slow`/`ray` or
`eval: false` skipped unless their flag is given), the costliest first (by CPU time, which shared cores do not inflate): where a notebook's test time goes.
BENCHMARKS.md, section "The test line: `nbdev_test`".

    IN_TEST=1 nice -n 10 python bench/nb_cell_times.py nbs/theorems/40_frontier.ipynb [--flags slow] [--top 15]
"""
import argparse, json, os, re, sys, time
from pathlib import Path

def skipped(src:str, flags:set) -> bool:
    "Whether nbdev_test skips the cell: `eval: false`, or a test flag (from settings.ini's tst_flags) not asked for."
    if re.search(r'^#\|\s*eval:\s*false', src, re.M): return True
    return any(re.search(rf'^#\|\s*{f}\s*$', src, re.M) for f in {'notest', 'slow', 'ray'} - flags)

def main(nb:str, flags:set, top:int):
    os.environ['IN_TEST'] = '1'
    from execnb.shell import CaptureShell
    path = Path(nb).resolve(); os.chdir(path.parent); sys.path.insert(0, str(path.parent))
    cells = [c for c in json.loads(path.read_text())['cells'] if c['cell_type'] == 'code']
    sh, times, t_all = CaptureShell(path), [], time.perf_counter()
    for i, c in enumerate(cells):
        src = ''.join(c['source'])
        if skipped(src, flags) or 'nbdev_export' in src: continue
        t0, c0 = time.perf_counter(), time.process_time(); sh.run(src)
        times.append((time.process_time() - c0, time.perf_counter() - t0, i, c.get('id'), src.strip().splitlines()[0][:70] if src.strip() else ''))
        if sh.exc: print(f"cell {i} ({c.get('id')}) failed: {sh.exc!r}"); break
    total, cpu = time.perf_counter() - t_all, time.process_time()
    print(f"{path.name}: {total:.1f} s wall, {cpu:.1f} s CPU (this process) in {len(times)} cells; costliest:")
    for c, t, i, cid, first in sorted(times, reverse=True)[:top]:
        print(f"  {c:7.1f} s CPU {t:7.1f} s wall  cell {i:3d} {cid:20s} {first}")
    return 1 if sh.exc else 0

if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('notebook'); ap.add_argument('--flags', default=''); ap.add_argument('--top', type=int, default=12)
    a = ap.parse_args()
    sys.exit(main(a.notebook, set(a.flags.split()) if a.flags else set(), a.top))
