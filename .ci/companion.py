#!/usr/bin/env python
"""The companion's reader measures (issue 46), defined once: what a reader meets in the README and each notebook.

A **word** is a run of non-blank characters holding at least one letter or digit (`$r^*$` and `1,535` are words, a
lone `|` or `=` is not). A page's **shown text** is what the docs site shows a reader: its Markdown cells, the code
comments of the cells it shows (cells marked `#| hide` or `#| exporti` are not shown; nbdev's `#|` directives are
not comments), and the text outputs it shows (stream, text/plain and text/markdown). A page's length counts all
three. The **first figure** is the first image a page shows (an image output, or a Markdown image); its position is
the number of shown words before it.

Usage: `python .ci/companion.py` prints the measures; `--enforce` also fails (exit 1) when a story notebook (title
`# Theorem N: …`) or the README passes its limit, or any reader-facing rule below is broken:
- story ≤ 3,000 words, its first figure within its first 600 words; README ≤ 1,000 words;
- no "THEORY §" reference anywhere a reader looks (notebooks, README, the library's texts);
- no history in notebooks or the README (review words, session or issue numbers, commit hashes, `+dirty`);
- every declared disagreement's `why` ≤ 60 words (published paper claims);
- BENCHMARKS.md holds today's numbers, not a log: ≤ 2,500 words (`wc -w`), no heading naming an issue or a date; every
  `bench/…` script it cites exists, and every script in `bench/` is cited and names its section in its docstring.
"""
import json, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NBS = ROOT / 'nbs'
WORD = re.compile(r'\S*[^\W_]\S*')
HISTORY = re.compile(r"\b(referees?|reviewers?|this session|last session|earlier version|was changed|issue \d+|"
                     r"stop \d+\b(?! steps?\b)|commit [0-9a-f]{7,40})\b|\+dirty|\b[0-9a-f]{7,12}\b(?=[^\n]*\b(commit|hash)\b)", re.I)
# a hash: 7–12 hex characters with a letter and a digit, not a float's digits (after `.` or a digit, or before an
# exponent's sign and digit, as in 9.900000e-01)
HASH = re.compile(r'(?<![.\d])\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,12}(?![-+]\d)(\+dirty)?\b')
THEORY = re.compile(r'THEORY(\.md)?\s*§')
STORY = re.compile(r'^#\s+Theorem\s+\d+\s*:', re.M)
LIMITS = dict(story=3000, first_figure=600, readme=1000, why=60)

def words(text:str) -> int: return len(WORD.findall(text))

def notebooks() -> list:
    return sorted(p for p in NBS.rglob('*.ipynb') if not any(s.startswith(('_', '.')) for s in p.relative_to(NBS).parts))

def shown(cell:dict) -> tuple:
    "(shown text, shows an image) of one cell."
    src = ''.join(cell['source'])
    if cell['cell_type'] == 'markdown':
        return src, bool(re.search(r'!\[[^\]]*\]\([^)]+\)|<img\s', src))
    if cell['cell_type'] != 'code' or re.search(r'^#\|\s*(hide|exporti)\b', src, re.M): return '', False
    comments = [l.split('#', 1)[1] for l in src.splitlines() if '#' in l and not l.lstrip().startswith('#|')
                and not re.match(r"""[^#]*['"][^'"]*#""", l)]
    out, image = [], False
    for o in cell.get('outputs', []):
        d = o.get('data', {})
        image = image or any(k.startswith('image/') for k in d)
        if o.get('output_type') == 'stream': out.append(''.join(o.get('text', '')))
        elif 'text/markdown' in d: out.append(''.join(d['text/markdown']))
        elif 'text/plain' in d and not any(k.startswith('image/') for k in d): out.append(''.join(d['text/plain']))
    return '\n'.join(comments + out), image

def measure(path:Path) -> dict:
    "Shown words (Markdown, comments, outputs), the first figure's word position, and the rule counts of a notebook."
    cells = json.loads(path.read_text())['cells']
    md = cm = total = 0; first = None; text = []
    for c in cells:
        t, image = shown(c)
        if image and first is None: first = total
        n = words(t); total += n; text.append(t)
        if c['cell_type'] == 'markdown': md += n
        else: cm += n
    title = next((''.join(c['source']) for c in cells if c['cell_type'] == 'markdown'), '')
    allsrc = '\n'.join(text)
    return dict(words=total, markdown=md, other=cm, first_figure=first, story=bool(STORY.search(title)),
                theory=len(THEORY.findall(path.read_text())), history=len(HISTORY.findall(allsrc)),
                hashes=len(HASH.findall(allsrc)))

def library_theory() -> int:
    return sum(len(THEORY.findall(p.read_text())) for p in (ROOT / 'entropic_bound').rglob('*.py') if p.name != '_modidx.py')

def long_whys(path:Path=ROOT / 'results' / 'paper' / 'claims.json') -> list:
    if not path.exists(): return []
    return [(c['id'], words(c['why'])) for c in json.loads(path.read_text())['claims'] if words(c.get('why') or '') > LIMITS['why']]

BENCH_WORDS = 2500
MONTH = r'(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?'
DATED = re.compile(rf'\b20\d\d-\d\d\b|\bissues?\s*#?\d+|(?<![\w&])#\d+\b|\b{MONTH}\s+\d{{1,2}}\b|\b\d{{1,2}}\s+{MONTH}(?!\w)', re.I)

def benchmarks(root:Path=ROOT) -> list:
    "The rules BENCHMARKS.md and bench/ keep (see the module's docstring): a list of what breaks them."
    text = (root / 'BENCHMARKS.md').read_text()
    fails, n = [], len(text.split())                       # words as `wc -w` counts them
    if n > BENCH_WORDS: fails.append(f"BENCHMARKS.md: {n} words > {BENCH_WORDS}")
    heads = [h.strip() for h in re.findall(r'^#{1,6}\s+(.+)$', re.sub(r'```.*?```', '', text, flags=re.S), re.M)]
    fails += [f"BENCHMARKS.md: the heading '{h}' names an issue or a date" for h in heads if DATED.search(h)]
    cited = set(re.findall(r'\bbench/([\w.-]+\.(?:py|sh))\b', text))
    fails += [f"BENCHMARKS.md cites bench/{c}, which does not exist" for c in sorted(cited) if not (root / 'bench' / c).exists()]
    for s in sorted(p for p in (root / 'bench').glob('*') if p.suffix in ('.py', '.sh')):
        if s.name not in cited: fails.append(f"bench/{s.name}: not cited by BENCHMARKS.md")
        if not any(f'"{h}"' in s.read_text()[:3000] for h in heads):
            fails.append(f"bench/{s.name}: its docstring names no section of BENCHMARKS.md (in double quotes)")
    print(f"BENCHMARKS.md: {n} words (limit {BENCH_WORDS}), {len(heads)} headings, {len(cited)} bench scripts cited")
    return fails

def main(enforce:bool=False) -> int:
    fails = []
    print(f"{'notebook':42s} {'words':>6s} {'md':>6s} {'other':>6s} {'1st fig':>7s} {'THEORY§':>7s} {'history':>7s} {'hashes':>6s}")
    for p in notebooks():
        m, rel = measure(p), p.relative_to(NBS).as_posix()
        fig = '—' if m['first_figure'] is None else m['first_figure']
        print(f"{rel + (' (story)' if m['story'] else ''):42s} {m['words']:6d} {m['markdown']:6d} {m['other']:6d} {fig!s:>7s} "
              f"{m['theory']:7d} {m['history']:7d} {m['hashes']:6d}")
        if m['story']:
            if m['words'] > LIMITS['story']: fails.append(f"{rel}: {m['words']} words > {LIMITS['story']}")
            if m['first_figure'] is None or m['first_figure'] > LIMITS['first_figure']:
                fails.append(f"{rel}: first figure at word {m['first_figure']} (limit {LIMITS['first_figure']})")
        if m['theory']: fails.append(f"{rel}: {m['theory']} THEORY § references")
        if m['history'] or m['hashes']: fails.append(f"{rel}: {m['history']} history words, {m['hashes']} hashes")
    readme = (ROOT / 'README.md').read_text()
    rw, rt, rh = words(readme), len(THEORY.findall(readme)), len(HISTORY.findall(readme)) + len(HASH.findall(readme))
    print(f"{'README.md':42s} {rw:6d} {'':6s} {'':6s} {'':>7s} {rt:7d} {rh:7d}")
    if rw > LIMITS['readme']: fails.append(f"README.md: {rw} words > {LIMITS['readme']}")
    if rt or rh: fails.append(f"README.md: {rt} THEORY § references, {rh} history words or hashes")
    lt = library_theory(); print(f"library texts: {lt} THEORY § references")
    if lt: fails.append(f"library: {lt} THEORY § references")
    lw = long_whys(); print(f"published paper claims: {len(lw)} reasons over {LIMITS['why']} words"
                           + (f" (longest {max(n for _, n in lw)})" if lw else ''))
    if lw: fails.append(f"{len(lw)} reasons over {LIMITS['why']} words")
    fails += benchmarks()
    print(f"companion: {len(fails)} rules broken" + ('' if enforce else ' (reported, not enforced)'))
    if enforce:
        for f in fails: print('FAIL', f)
    return 1 if enforce and fails else 0

if __name__ == '__main__': sys.exit(main('--enforce' in sys.argv[1:]))
