#!/usr/bin/env python
"""The front door's images are current: each carries the digest of the records and the drawing code it was made from.

Usage: python .ci/images.py check    (CI: exit 1 when an image's records or drawing code changed since it was made)
       python .ci/images.py stamp    (after copying a fresh figure into nbs/images: record what it was made from)

An image `nbs/images/<figure>.png` shown by `nbs/index.ipynb` (and so the README) is the figure `<figure>` of a
theorem's table, drawn at the paper scale by `eb-reproduce --scale paper --from-records` into
`results/paper/figures/`. Its digest (in `nbs/images/digests.json`) is a SHA-256 over the JSON records of the sweeps
the figure is drawn from (`results/paper/<theorem>/<sweep>/`) and over the source of the function that draws it.
File times mean nothing after a clone; the digests do. `check` also fails on an image the index shows that has no
digest, and on an image whose bytes differ from the paper figure it claims to copy."""
import hashlib, inspect, json, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMAGES, DIGESTS = ROOT / 'nbs' / 'images', ROOT / 'nbs' / 'images' / 'digests.json'

def shown() -> list:
    "Names of the images the index (the README's source) shows."
    nb = json.loads((ROOT / 'nbs' / 'index.ipynb').read_text())
    text = '\n'.join(''.join(c['source']) for c in nb['cells'] if c['cell_type'] == 'markdown')
    return sorted(set(re.findall(r'\]\(images/([\w.\-]+\.png)\)', text)))

def figure_of(name:str):
    "(theorem name, Figure) of the registered figure `name`, searching every theorem table."
    sys.path.insert(0, str(ROOT))
    from entropic_bound.harness.cli import EXPERIMENTS, theorem
    for t in EXPERIMENTS:
        try: th = theorem(t)
        except ImportError: continue                                      # an extra that is not installed
        if name in th.figures: return t, th.figures[name]
    raise SystemExit(f"no theorem table registers a figure named {name!r} (the image nbs/images/{name}.png)")

def digest(name:str) -> dict:
    "What the figure `name` is made from: its records' digest, its drawing code's digest, the paper figure's."
    t, fig = figure_of(name)
    h = hashlib.sha256()
    for sweep in fig.uses:
        for p in sorted((ROOT / 'results' / 'paper' / t / sweep).rglob('*.json')):
            h.update(p.relative_to(ROOT).as_posix().encode()); h.update(p.read_bytes())
    code = hashlib.sha256(inspect.getsource(inspect.unwrap(fig.draw)).encode()).hexdigest()
    return dict(theorem=t, sweeps=list(fig.uses), records=h.hexdigest(), code=code,
                source=f'results/paper/figures/{name}.png')

def main(cmd:str) -> int:
    names = [n.removesuffix('.png') for n in shown()]
    if cmd == 'stamp':
        DIGESTS.write_text(json.dumps({n: digest(n) for n in names}, indent=1) + '\n')
        print(f"stamped {len(names)} images: {', '.join(names)}"); return 0
    if cmd != 'check': print(__doc__); return 2
    stored = json.loads(DIGESTS.read_text()) if DIGESTS.exists() else {}
    bad = []
    for n in names:
        if n not in stored: bad.append(f"{n}.png has no digest: draw it at the paper scale, copy it, then `stamp`"); continue
        now = digest(n)
        bad += [f"{n}.png: its {k} changed since it was made (redraw: eb-reproduce --scale paper --from-records, copy "
                f"{now['source']} to nbs/images/, then `python .ci/images.py stamp`)"
                for k in ('records', 'code', 'sweeps') if stored[n].get(k) != now[k]]
        src = ROOT / now['source']
        if src.exists() and src.read_bytes() != (IMAGES / f'{n}.png').read_bytes():
            bad.append(f"{n}.png differs from {now['source']}, the figure it copies")
    for b in bad: print('STALE', b)
    print(f"images: {len(names)} shown by the front door, {len(bad)} stale")
    return 1 if bad else 0

if __name__ == '__main__': sys.exit(main(sys.argv[1] if sys.argv[1:] else 'check'))
