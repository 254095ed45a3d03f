"""Measured CPU cost of the published paper scale, read from its records (results/paper): compute time per
experiment (BENCHMARKS.md, section "The paper scale's compute", quotes this table), then per sweep split by the commit
that computed it, and the trainers' per-step rate as a fraction of the matmul rate. Seconds; prints only.

Usage: python bench/paper_measured.py [--records results/paper] [--matmul-gflops 128.0]"""
from __future__ import annotations
import argparse, json, statistics, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'bench'))
from paper_cost import head_flops, trainer_ranks   # one FLOP count for the estimate and the measurement

def main(argv=None):
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument('--records', default=str(ROOT / 'results' / 'paper'))
    a.add_argument('--matmul-gflops', type=float, default=128.0,
                   help='dense fp32 matmul rate of one thread (bench/paper_cost.py measured 128.0 on a quiet machine)')
    a = a.parse_args(argv)
    root = Path(a.records)
    rows, rates = [], []
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
    per = {}                                             # experiment -> [records, compute, largest config]
    for name, commit, n, tot, med, mx, *_ in rows:
        e = per.setdefault(name.split('/')[0], [0, 0., 0.]); e[0] += n; e[1] += tot; e[2] = max(e[2], mx)
    L = ['| experiment | records | compute (s) | largest config (s) |', '|---|---|---|---|']
    L += [f"| {x} | {n:,} | {s:,.0f} | {m:,.0f} |" for x, (n, s, m) in sorted(per.items(), key=lambda kv: -kv[1][1])]
    L += [f"| **all** | **{sum(v[0] for v in per.values()):,}** | **{sum(v[1] for v in per.values()):,.0f} "
          f"({sum(v[1] for v in per.values()) / 3600:.1f} h)** | |", '',
          "Each record's `wall_s` is the compute time of one config, set-up and evaluation included, on the host it "
          "names, contention included; rows below are split by the commit that computed them.", '',
          '| sweep | commit | records | compute (s) | median s/config | max s/config | computed (first – last) |',
          '|---|---|---|---|---|---|---|']
    for name, commit, n, tot, med, mx, hosts, t0, t1 in rows:
        L.append(f"| {name} | {commit[:7]} | {n} | {tot:.0f} | {med:.1f} | {mx:.1f} | {t0} – {t1} |")
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
    print('\n'.join(L))

if __name__ == '__main__': main()
