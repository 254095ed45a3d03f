"""Measured CPU cost of the published paper scale, read from its records (results/paper): compute time per sweep,
the trainers' per-step rate as a fraction of the matmul rate, and the estimate of `bench/paper_cost.py` beside it.

Usage: python bench/paper_measured.py [--records results/paper] [--matmul-gflops 128.0]
Writes the section "Paper scale on this CPU: measured" of BENCHMARKS.md (only that section)."""
from __future__ import annotations
import argparse, json, statistics, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'bench'))
from paper_cost import head_flops, trainer_ranks, write_section   # one FLOP count for the estimate and the measurement
HEAD = '## Paper scale on this CPU: measured'

def estimate_rows() -> dict:
    "The estimated total seconds per experiment from the section of `bench/paper_cost.py`, if BENCHMARKS.md has it."
    out, text = {}, (ROOT / 'BENCHMARKS.md').read_text()
    sec = text.split('## Paper scale on this CPU: estimated cost', 1)[-1].split('\n## ', 1)[0]
    for line in sec.splitlines():
        cells = [c.strip() for c in line.strip('|').split('|')]
        if len(cells) == 6 and cells[4].replace('.', '').isdigit(): out[cells[0]] = float(cells[4])
    return out

def main(argv=None):
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument('--records', default=str(ROOT / 'results' / 'paper'))
    a.add_argument('--matmul-gflops', type=float, default=128.0,
                   help='dense fp32 matmul rate of one thread (the estimate section measured 128.0 on a quiet machine)')
    a = a.parse_args(argv)
    root, est = Path(a.records), estimate_rows()
    rows, rates = [], []
    for d in sorted(p for p in root.glob('*/*') if p.is_dir()):
        recs = [json.loads(p.read_text()) for p in sorted(d.glob('*.json'))]
        if not recs: continue
        name = f"{d.parent.name}/{d.name}"
        walls = [r['wall_s'] for r in recs]
        hosts = sorted({r.get('host', '?') for r in recs}); commits = sorted({str(r.get('commit')) for r in recs})
        rows.append((name, len(recs), sum(walls), statistics.median(walls), max(walls), commits, hosts,
                     min(r['finished'] for r in recs), max(r['finished'] for r in recs)))
        for r in recs:
            c = r['config']
            if (ranks := trainer_ranks(name, c)) and c.get('steps'):
                ms = r['wall_s'] / c['steps']
                rates.append((name, c['kind'], c['d'], len(ranks), ms * 1e3,
                              head_flops(c['L'], c['d'], c['d'], ranks, c['batch']) / ms / 1e9))
    L = [HEAD, '', "Read from the published records (`python bench/paper_measured.py`): each record's `wall_s` is the "
         "compute time of one config, set-up and evaluation included, on the host it names. These are the times of the "
         "real run, contention included: the records were computed by two or three `eb-reproduce` processes sharing "
         "the 2 cores (one torch thread each), and other work (a CI run, notebook executions) shared the machine for "
         "parts of it, so read them as upper bounds for a quiet `--workers 2` run, and the rates below as lower "
         "bounds.", '',
         '| sweep | records | compute (s) | median s/config | max s/config | estimated total (s) | computed (first – last) |',
         '|---|---|---|---|---|---|---|']
    for name, n, tot, med, mx, commits, hosts, t0, t1 in rows:
        e = [v for k, v in est.items() if k == name or k.startswith(name + ' (')]
        L.append(f"| {name} | {n} | {tot:.0f} | {med:.1f} | {mx:.1f} | {f'{sum(e):.0f}' if e else '—'} "
                 f"| {t0} – {t1} |")
    tot = sum(r[2] for r in rows)
    L += ['', f"All published records: {sum(r[1] for r in rows)}, {tot / 3600:.2f} h of compute; commits "
          f"{', '.join(sorted({c for r in rows for c in r[5]}))}; host {'; '.join(sorted({h for r in rows for h in r[6]}))}.", '']
    if rates:
        L += [f"Trainer rate of the trained-ensemble configs (forward + backward FLOPs of all steps over the whole "
              f"config's wall time, so set-up and evaluation count against it), against {a.matmul_gflops:.1f} GFLOP/s "
              "(512³ fp32 GEMM, 1 thread, quiet machine):", '',
              '| sweep | kind | d | members | ms/step | GFLOP/s | fraction of the matmul rate |', '|---|---|---|---|---|---|---|']
        groups = {}
        for name, kind, d, E, ms, g in rates: groups.setdefault((name, kind, d, E), []).append((ms, g))
        for (name, kind, d, E), v in sorted(groups.items()):
            ms, g = statistics.median(x[0] for x in v), statistics.median(x[1] for x in v)
            L.append(f"| {name} | {kind} | {d} | {E} | {ms:.0f} | {g:.1f} | {100 * g / a.matmul_gflops:.1f}% (median of {len(v)}) |")
        L.append('')
    write_section(L, HEAD)
    print('\n'.join(L))

if __name__ == '__main__': main()
