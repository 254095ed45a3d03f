#!/usr/bin/env python
"""A republished claims.json against a reference one: the verdicts are the same, only the words around them moved.

Usage: python .ci/republish_check.py REFERENCE_claims.json REPUBLISHED_claims.json
   or: python .ci/republish_check.py --ref GIT_REF results/paper/claims.json   (the reference read from git)

The companion's rewrite (stories and appendices) may change how a claim is worded and where its reason points, not what
was measured or decided. Compared by id: the same ids, and for each claim the same `kind`, `holds`, `expected`,
`verdict`, and in `measured` the same numbers in the same order (its words may change: a label renamed, a history word
dropped); `why`, `statement`, the theorem's title, `declared_after_data` and the words of `measured` may differ, and
are counted and listed (exit 0). Anything else differing, or an unexpected verdict, fails (exit 1)."""
import json, re, subprocess, sys
from companion import HISTORY         # history words ('issue 24') are words: their numbers measure nothing

SAME = ('kind', 'holds', 'expected', 'verdict')
MAY_DIFFER = ('why', 'statement', 'declared_after_data', 'measured')
NUMBER = re.compile(r'[-+]?(?:\d+(?:[.,]\d+)*(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?|inf|nan', re.I)

def numbers(text) -> list:
    "The numbers a measured text states, in order (its words aside, and history such as 'issue 24' too)."
    return NUMBER.findall(HISTORY.sub('', str(text)))

def load(spec:str, ref:str=None) -> dict:
    "A claims.json from a path, or from `ref:path` in git."
    if ref is None: return json.load(open(spec))
    return json.loads(subprocess.run(['git', 'show', f'{ref}:{spec}'], check=True, capture_output=True, text=True).stdout)

def compare(a:dict, b:dict) -> tuple:
    "(failures, allowed differences) of claims.json `b` against the reference `a`."
    ca, cb = ({c['id']: c for c in d['claims']} for d in (a, b))
    bad = [f"only in the reference: {k}" for k in sorted(ca.keys() - cb.keys())]
    bad += [f"only republished: {k}" for k in sorted(cb.keys() - ca.keys())]
    moved = []
    for k in sorted(ca.keys() & cb.keys()):
        bad += [f"{k}: {f} {ca[k].get(f)!r} -> {cb[k].get(f)!r}" for f in SAME if ca[k].get(f) != cb[k].get(f)]
        if numbers(ca[k].get('measured')) != numbers(cb[k].get('measured')):
            bad.append(f"{k}: measured numbers {ca[k].get('measured')!r} -> {cb[k].get('measured')!r}")
        moved += [(k, f) for f in MAY_DIFFER if ca[k].get(f) != cb[k].get(f)]
    bad += [f"unexpected verdict: {c['id']}" for c in b['claims'] if c['verdict'] not in ('holds', 'disagrees (declared)')]
    return bad, moved

def main(argv:list) -> int:
    ref = None
    if argv[:1] == ['--ref']: ref, argv = argv[1], argv[2:]
    if len(argv) not in (1, 2): print(__doc__); return 2
    a = load(argv[0], ref)
    b = load(argv[-1])
    bad, moved = compare(a, b)
    counts = {f: sum(1 for _, g in moved if g == f) for f in MAY_DIFFER}
    print(f"{len(b['claims'])} claims against {len(a['claims'])} in the reference; reworded: "
          + ', '.join(f"{n} {f}" for f, n in counts.items()))
    for k, f in moved[:400]: print(f"  reworded {f}: {k}")
    if bad:
        print(f"{len(bad)} differences in what was measured or decided:"); print('\n'.join('  ' + x for x in bad[:60]))
        return 1
    print("same ids, measurements and verdicts as the reference")
    return 0

if __name__ == '__main__': sys.exit(main(sys.argv[1:]))
