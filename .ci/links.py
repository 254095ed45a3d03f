#!/usr/bin/env python
"""Relative links in notebooks: each target file exists and each `#anchor` is a heading of the target.

An anchor is what the docs site (MyST, `myst_heading_anchors = 3`) makes of a heading of level ≤ 3: the heading's text
and inline code (inline math is left out), GitHub-slugified (lower case, spaces to `-`, punctuation dropped), with
`-1`, `-2` … on repeats. Usage: `python .ci/links.py [NOTEBOOK ...]` (default: nbs/index.ipynb and nbs/glossary.ipynb);
exit 1 on a broken link. With no arguments it also checks that every `ALL_CAPS` name a story notebook (title
`# Theorem N: …`) shows in backticks, in its Markdown or its Markdown and text outputs, is defined in the glossary.
"""
import json, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r'\]\((?!https?:|mailto:|/)([^)\s#]*)(?:#([^)\s]+))?\)')

def slug(title:str) -> str:
    title = re.sub(r'\$\$.*?\$\$|\$[^$]*\$', '', title)                 # inline math is not part of the slug
    title = title.replace('`', '').replace('**', '').replace('*', '')
    return re.sub(r'[^\w\u4e00-\u9fff\- ]', '', title.lower().replace(' ', '-'))

def anchors(path:Path) -> set:
    "The heading anchors of a notebook (levels 1–3) or a Markdown file."
    if path.suffix == '.ipynb':
        text = '\n'.join(''.join(c['source']) for c in json.loads(path.read_text())['cells'] if c['cell_type'] == 'markdown')
    else: text = path.read_text()
    text = re.sub(r'```.*?```', '', text, flags=re.S)
    out = set()
    for m in re.finditer(r'^#{1,3}\s+(.+?)\s*$', text, re.M):
        s, i = slug(m.group(1)), 1
        base = s
        while s in out: s = f'{base}-{i}'; i += 1
        out.add(s)
    return out

def texts(nb:Path) -> list:
    "Markdown cells and Markdown outputs of a notebook."
    cells = json.loads(nb.read_text())['cells']
    return ([''.join(c['source']) for c in cells if c['cell_type'] == 'markdown'] +
            [''.join(o['data']['text/markdown']) for c in cells for o in c.get('outputs', []) if 'text/markdown' in o.get('data', {})])

def check(nb:Path) -> list:
    bad = []
    for t in texts(nb):
        for m in LINK.finditer(t):
            target = (nb.parent / m.group(1)).resolve() if m.group(1) else nb
            if not target.exists(): bad.append(f"{nb.relative_to(ROOT)}: {m.group(0)[1:]}: no such file"); continue
            if m.group(2) and target.suffix in ('.ipynb', '.md') and m.group(2) not in anchors(target):
                bad.append(f"{nb.relative_to(ROOT)}: {m.group(0)[1:]}: no heading with this anchor in {target.relative_to(ROOT)}")
    return bad

NAME = re.compile(r'`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{3,}[0-9]*)`')

def undefined_names(glossary:Path=ROOT / 'nbs' / 'glossary.ipynb') -> list:
    "(story, name) of each backticked ALL_CAPS name a story shows that the glossary does not define."
    defined = set(NAME.findall('\n'.join(texts(glossary)))) if glossary.exists() else set()
    out = []
    for nb in sorted((ROOT / 'nbs').rglob('*.ipynb')):
        cells = json.loads(nb.read_text())['cells']
        title = next((''.join(c['source']) for c in cells if c['cell_type'] == 'markdown'), '')
        if not re.search(r'^#\s+Theorem\s+\d+\s*:', title, re.M): continue
        shown = texts(nb) + [''.join(o.get('text', '')) + ''.join(o.get('data', {}).get('text/plain', ''))
                             for c in cells for o in c.get('outputs', [])]
        text = re.sub(r'\$\$.*?\$\$|\$[^$\n]*\$', '', '\n'.join(shown), flags=re.S)
        out += [(nb.relative_to(ROOT).as_posix(), n) for n in sorted(set(NAME.findall(text)) - defined)]
    return out

if __name__ == '__main__':
    nbs = [Path(a).resolve() for a in sys.argv[1:]] or sorted(p for p in (ROOT / 'nbs').rglob('*.ipynb')
           if not any(x.startswith(('_', '.')) for x in p.relative_to(ROOT / 'nbs').parts))
    bad = [b for nb in nbs for b in check(nb)]
    if not sys.argv[1:]:
        und = undefined_names()
        bad += [f"{nb}: `{n}` is not defined in the glossary" for nb, n in und]
    for b in bad: print('BROKEN', b)
    print(f"links: {len(bad)} broken in {len(nbs)} notebooks")
    sys.exit(1 if bad else 0)
