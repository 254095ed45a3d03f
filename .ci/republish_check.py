#!/usr/bin/env python
"""A republished claims.json against a reference one: the verdicts are the same, only the words around them moved.

Usage: python .ci/republish_check.py REFERENCE_claims.json REPUBLISHED_claims.json
   or: python .ci/republish_check.py --ref GIT_REF results/paper/claims.json   (the reference read from git)
   or: python .ci/republish_check.py --frozen FACTS.json SCALE results/SCALE/claims.json   (what CI runs)
   and: python .ci/republish_check.py --freeze FACTS.json --ref GIT_REF   (writes the facts of both scales at GIT_REF)
A frozen reference keeps, per claim id, only what may not change (kind, holds, expected, verdict, measured numbers):
`.ci/claims_before_companion.json` holds those of the claims before the companion's rewrite. Ids of a theorem the
reference does not have (a theorem added since) are listed and allowed. A computation that changes what a claim measured
(never its verdict) is recorded in the frozen file's `amended` section, per scale and id: the new numbers, the old ones
and why (with the commit that made the change); the check then holds the claim to the amended numbers and lists it.

The companion's rewrite (stories and appendices) may change how a claim is worded and where its reason points, not what
was measured or decided. Compared by id: the same ids, and for each claim the same `kind`, `holds`, `expected`,
`verdict`, and in `measured` the same numbers in the same order (its words may change: a label renamed, a history word
dropped); `why`, `statement`, the theorem's title, `declared_after_data` and the words of `measured` may differ, and
are counted and listed (exit 0). Anything else differing, or an unexpected verdict, fails (exit 1)."""
import json, re, subprocess, sys
from companion import HISTORY         # history words ('issue 24') are words: their numbers measure nothing

SAME = ('kind', 'holds', 'expected', 'verdict')
AMENDMENT = {'numbers', 'was', 'why', 'commit'}     # an amendment's fields: its numbers, never a verdict
MAY_DIFFER = ('why', 'statement', 'declared_after_data', 'measured')
NUMBER = re.compile(r'[-+]?(?:\d+(?:[.,]\d+)*(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?|inf|nan', re.I)

def numbers(text) -> list:
    "The numbers a measured text states, in order (its words aside, and history such as 'issue 24' too)."
    return NUMBER.findall(HISTORY.sub('', str(text)))

def load(spec:str, ref:str=None) -> dict:
    "A claims.json from a path, or from `ref:path` in git."
    if ref is None: return json.load(open(spec))
    return json.loads(subprocess.run(['git', 'show', f'{ref}:{spec}'], check=True, capture_output=True, text=True).stdout)

def facts(d:dict) -> dict:
    "Per claim id, what a republication may not change."
    return {c['id']: dict({f: c.get(f) for f in SAME}, numbers=numbers(c.get('measured'))) for c in d['claims']}

AS_DECLARED = ('holds', 'disagrees (declared)', 'no reading')   # the verdicts that are not unexpected

def compare_frozen(fa:dict, b:dict) -> tuple:
    "(failures, ids of new theorems) of claims.json `b` against frozen facts `fa`."
    fb, known = facts(b), {k.split('/')[0] for k in fa}
    new = sorted(k for k in fb.keys() - fa.keys() if k.split('/')[0] not in known)
    bad = [f"only in the reference: {k}" for k in sorted(fa.keys() - fb.keys())]
    bad += [f"only republished: {k}" for k in sorted(fb.keys() - fa.keys()) if k.split('/')[0] in known]
    bad += [f"{k}: {f} {fa[k][f]!r} -> {fb[k][f]!r}" for k in sorted(fa.keys() & fb.keys()) for f in fa[k]
            if fa[k][f] != fb[k][f]]
    bad += [f"unexpected verdict: {c['id']}" for c in b['claims'] if c['verdict'] not in AS_DECLARED]
    return bad, new

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
    bad += [f"unexpected verdict: {c['id']}" for c in b['claims'] if c['verdict'] not in AS_DECLARED]
    return bad, moved

def main(argv:list) -> int:
    if argv[:1] == ['--freeze']:
        out, ref = argv[1], argv[3]
        frozen = {sc: facts(load(f'results/{sc}/claims.json', ref)) for sc in ('quick', 'paper')}
        json.dump(dict(ref=ref, **frozen), open(out, 'w'), indent=0, ensure_ascii=False)
        print(f"wrote {out}: the facts of {', '.join(f'{len(v)} {k}' for k, v in frozen.items())} claims at {ref}")
        return 0
    if argv[:1] == ['--frozen']:
        ref, scale, b = json.load(open(argv[1])), argv[2], load(argv[3])
        fa, amended = ref[scale], ref.get('amended', {}).get(scale, {})
        for k, a in amended.items():           # a computation moved a measured number: held to the amended numbers
            why = (f"not a frozen claim id" if k not in fa else
                   f"holds {sorted(a)}, not {sorted(AMENDMENT)}" if set(a) != AMENDMENT else
                   "does not start from the frozen numbers" if fa[k]['numbers'] != a['was'] else
                   "changes nothing" if a['numbers'] == a['was'] else None)
            if why: print(f"amendment of {k}: {why}"); return 1
            fa[k] = dict(fa[k], numbers=a['numbers'])
        bad, new = compare_frozen(fa, b)
        print(f"{scale}: {len(b['claims'])} claims against {len(fa)} frozen before the companion's rewrite"
              + (f"; {len(new)} of theorems added since ({', '.join(sorted({k.split('/')[0] for k in new}))})"
                 if new else ''))
        for k, a in sorted(amended.items()): print(f"  amended at {a['commit']}: {k} ({a['why']})")
        if bad:
            print(f"{len(bad)} differences in what was measured or decided:"); print('\n'.join('  ' + x for x in bad[:60]))
            return 1
        print("same ids, kinds, verdicts and measured numbers as before the rewrite")
        return 0
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
