"""Measured CPU cost of the published paper scale, read from its records (results/paper): compute time per sweep,
the trainers' per-step rate as a fraction of the matmul rate, and the estimate of `bench/paper_cost.py` beside it.

Usage: python bench/paper_measured.py [--records results/paper] [--matmul-gflops 128.0]
Writes the section "Paper scale on this CPU: measured" of BENCHMARKS.md (only that section)."""
from __future__ import annotations
import argparse, json, statistics, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'bench'))
from paper_cost import experiments, head_flops, trainer_ranks, write_section   # one FLOP count for the estimate and the measurement
HEAD = '## Paper scale on this CPU: measured'

def estimate_rows() -> dict:
    "{experiment: (estimated total seconds, configs estimated)} from the section of `bench/paper_cost.py`, if any."
    out, text = {}, (ROOT / 'BENCHMARKS.md').read_text()
    sec = text.split('## Paper scale on this CPU: estimated cost', 1)[-1].split('\n## ', 1)[0]
    for line in sec.splitlines():
        cells = [c.strip() for c in line.strip('|').split('|')]
        if len(cells) == 6 and cells[4].replace('.', '').isdigit(): out[cells[0]] = (float(cells[4]), int(cells[1]))
    return out

def main(argv=None):
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument('--records', default=str(ROOT / 'results' / 'paper'))
    a.add_argument('--matmul-gflops', type=float, default=128.0,
                   help='dense fp32 matmul rate of one thread (the estimate section measured 128.0 on a quiet machine)')
    a = a.parse_args(argv)
    root, est = Path(a.records), estimate_rows()
    rows, rates = [], []
    grid = {}                                            # configs per sweep in today's paper grid
    for name, configs, _ in experiments('cpu'): grid[name.split(' (')[0]] = grid.get(name.split(' (')[0], 0) + len(configs)
    for d in sorted(p for p in root.glob('*/*') if p.is_dir()):
        recs = [json.loads(p.read_text()) for p in sorted(d.glob('*.json'))]
        if not recs: continue
        name = f"{d.parent.name}/{d.name}"
        by_commit = {}                                   # in the order each commit first finished a record
        for r in sorted(recs, key=lambda r: r['finished']): by_commit.setdefault(str(r.get('commit')), []).append(r)
        for commit, rc in by_commit.items():
            walls = [r['wall_s'] for r in rc]
            rows.append((name, commit, len(rc), sum(walls), statistics.median(walls), max(walls),
                         sorted({r.get('host', '?') for r in rc}), min(r['finished'] for r in rc),
                         max(r['finished'] for r in rc)))
        for r in recs:
            c = r['config']
            if 'restarts' in r.get('carried_from', {}):   # re-keyed to fewer restarts: the wall time is of the members trained
                c = dict(c, restarts=r['carried_from']['restarts'])
            if (ranks := trainer_ranks(name, c)) and c.get('steps'):
                ms = r['wall_s'] / c['steps']
                rates.append((name, str(r.get('commit'))[:7], c['kind'], c['d'], len(ranks), ms * 1e3,
                              head_flops(c['L'], c['d'], c['d'], ranks, c['batch']) / ms / 1e9))
    L = [HEAD, '', "Read from the published records (`python bench/paper_measured.py`): each record's `wall_s` is the "
         "compute time of one config, set-up and evaluation included, on the host it names; rows are split by the commit "
         "that computed them. These are the times of the real runs, contention included: the published records were "
         "computed piecewise over several sessions (the dates in the last column), mostly by `eb-reproduce --workers 2` "
         "(one torch thread each) with other work on the same 2 cores beside them (notebook tests, a CI run, a second "
         "`eb-reproduce` for some early pieces), and on the hosts named below, which may differ in speed. Read each row as an upper bound for a "
         "quiet `--workers 2` run on its host, and the rates below as lower bounds; the total is a sum over hosts, not "
         "the time of one run (issue 28 asks for one uninterrupted run). The estimate of a sweep (a quiet machine, the "
         "trainer before its 1.4× speed-up) is given on its first row.", '',
         '| sweep | commit | records | compute (s) | median s/config | max s/config | estimated total (s) | computed (first – last) |',
         '|---|---|---|---|---|---|---|---|']
    for i, (name, commit, n, tot, med, mx, hosts, t0, t1) in enumerate(rows):
        first = not i or rows[i - 1][0] != name          # a sweep's estimate goes on its first row only
        e = [v for k, v in est.items() if k == name or k.startswith(name + ' (')]
        ne = sum(c for _, c in e)                  # configs the estimate counted: the grid may have changed since
        est_s = '″' if not first else '—' if not e else f"{sum(s for s, _ in e):.0f}" + (
            '' if ne == grid.get(name, ne) else f' (for {ne} configs; the grid now has {grid[name]})')
        L.append(f"| {name} | {commit[:7]} | {n} | {tot:.0f} | {med:.1f} | {mx:.1f} | {est_s} | {t0} – {t1} |")
    tot = sum(r[3] for r in rows)
    L += ['', f"All published records: {sum(r[2] for r in rows)}, {tot / 3600:.2f} h of compute; commits "
          f"{', '.join(sorted({r[1] for r in rows}))}; host {'; '.join(sorted({h for r in rows for h in r[6]}))}.", '']
    if rates:
        L += [f"Trainer rate of the trained-ensemble configs (forward + backward FLOPs of all steps over the whole "
              f"config's wall time, so set-up and evaluation count against it), against {a.matmul_gflops:.1f} GFLOP/s "
              "(512³ fp32 GEMM, 1 thread, quiet machine):", '',
              '| sweep | commit | kind | d | members | ms/step | GFLOP/s | fraction of the matmul rate |',
              '|---|---|---|---|---|---|---|---|']
        groups = {}
        for name, commit, kind, d, E, ms, g in rates: groups.setdefault((name, commit, kind, d, E), []).append((ms, g))
        for (name, commit, kind, d, E), v in sorted(groups.items()):
            ms, g = statistics.median(x[0] for x in v), statistics.median(x[1] for x in v)
            L.append(f"| {name} | {commit} | {kind} | {d} | {E} | {ms:.0f} | {g:.1f} | "
                     f"{100 * g / a.matmul_gflops:.1f}% (median of {len(v)}) |")
        L.append('')
    write_section(L, HEAD)
    print('\n'.join(L))

if __name__ == '__main__': main()
