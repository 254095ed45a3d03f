"""The committed quick-scale verdicts against the ones CI's main line just recomputed from an empty results folder.

Usage: python .ci/quick_check.py COMMITTED_claims.json RECOMPUTED_claims.json
Claims are compared by id. Fails (exit 1) when the committed file holds no claims, an id repeats, a claim exists in one
file only, a claim's verdict, `holds` or `expected` differs, an experiment's status differs, or any recomputed verdict
is unexpected. Measured numbers and statements may differ in their last digits from one CPU to another: they are
counted and listed, never failed on. A change in what a claim says must come with the recomputed quick records
(`eb-reproduce --scale quick --out results`, then commit results/quick)."""
import json, sys

JUDGED = ('holds', 'expected', 'verdict')           # what must agree
PRINTED = ('statement', 'measured')                 # what may differ in the last digits across hosts

def main(committed:str, recomputed:str) -> int:
    a, b = (json.load(open(p)) for p in (committed, recomputed))
    if not a.get('claims'): print(f"{committed} holds no claims: nothing to check against"); return 1
    for name, cl in (('committed', a['claims']), ('recomputed', b['claims'])):
        ids = [c['id'] for c in cl]
        if len(set(ids)) != len(ids): print(f"the {name} claims repeat an id: they cannot be compared"); return 1
    ca, cb = {c['id']: c for c in a['claims']}, {c['id']: c for c in b['claims']}
    bad = [f"only committed: {k}" for k in sorted(ca.keys() - cb.keys())]
    bad += [f"only recomputed: {k}" for k in sorted(cb.keys() - ca.keys())]
    printed = []
    for k in sorted(ca.keys() & cb.keys()):
        bad += [f"{k}: {f} {ca[k].get(f)!r} committed, {cb[k].get(f)!r} now" for f in JUDGED
                if ca[k].get(f) != cb[k].get(f)]
        printed += [f"{k}: {f}: {ca[k].get(f)!r} committed, {cb[k].get(f)!r} now" for f in PRINTED
                    if ca[k].get(f) != cb[k].get(f)]
    status = lambda d: {e: x.get('status') for e, x in d.get('experiments', {}).items()}
    if status(a) != status(b): bad.append(f"experiments' status differs: committed {status(a)}, now {status(b)}")
    bad += [f"unexpected verdict: {c['id']} ({c['verdict']})" for c in b['claims']
            if c['verdict'] not in ('holds', 'disagrees (declared)', 'no reading')]
    n, ok = len(cb), sum(c['holds'] is True for c in cb.values())    # holds: None for a no reading
    print(f"quick scale recomputed: {n} claims ({len(ca)} committed), {ok} hold; "
          f"not evaluated: {', '.join(b.get('not_evaluated') or {}) or 'none'}")
    print(f"{len(printed)} printed numbers or statements differ from the committed ones (allowed: last digits "
          f"across hosts){':' if printed else ''}")
    for x in printed[:20]: print('  ' + x[:300])
    if bad:
        print(f"{len(bad)} differences in ids or verdicts from the committed results/quick/claims.json "
              "(recompute: eb-reproduce --scale quick --out results, then commit results/quick):")
        print('\n'.join('  ' + x for x in bad[:50])); return 1
    print("the same claim ids and verdicts as the committed results/quick/claims.json")
    return 0

if __name__ == '__main__': sys.exit(main(*sys.argv[1:]))
