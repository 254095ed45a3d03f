"""The published paper-scale verdicts against a fresh `eb-reproduce --scale paper --from-records`.

Usage: python .ci/paper_check.py PUBLISHED_claims.json REGENERATED_claims.json
Fails (exit 1) when the published file holds no claims, a statement repeats, or any claim's statement, verdict or
measured numbers, the list of experiments not evaluated, or the records' summary differ. Measured numbers are compared
as the exact strings the claims print (the same records and code give the same strings on the same CPU and BLAS; a
last-digit change on another machine would show here as a difference to look at): a change in a claim's code must come with the republished report
(`eb-reproduce --scale paper --from-records`, then commit results/paper)."""
import json, sys

def main(published:str, regenerated:str) -> int:
    a, b = (json.load(open(p)) for p in (published, regenerated))
    if not a['claims']: print(f"{published} holds no claims: nothing to check against"); return 1
    key = lambda c: (c['experiment'], c['statement'])
    for name, cl in (('published', a['claims']), ('regenerated', b['claims'])):
        if len({key(c) for c in cl}) != len(cl): print(f"the {name} claims repeat a statement: they cannot be compared"); return 1
    ca, cb = {key(c): c for c in a['claims']}, {key(c): c for c in b['claims']}
    bad = [f"only published: {k}" for k in ca.keys() - cb.keys()] + [f"only regenerated: {k}" for k in cb.keys() - ca.keys()]
    for k in ca.keys() & cb.keys():
        for f in ('holds', 'measured'):
            if ca[k][f] != cb[k][f]: bad.append(f"{k[0]}: {k[1]!r}: {f} {ca[k][f]!r} published, {cb[k][f]!r} now")
    for f in ('not_evaluated', 'records', 'scale'):
        if a.get(f) != b.get(f): bad.append(f"{f} differs: published {a.get(f)!r}, now {b.get(f)!r}")
    n, ok = len(cb), sum(c['holds'] for c in cb.values())
    print(f"paper scale from the published records: {ok} of {n} claims hold; not evaluated: "
          f"{', '.join(b['not_evaluated']) or 'none'}")
    if bad:
        print(f"{len(bad)} differences from the published claims.json "
              "(republish: eb-reproduce --scale paper --from-records, then commit results/paper):")
        print('\n'.join('  ' + x for x in bad[:50])); return 1
    print("identical to the published claims.json")
    return 0

if __name__ == '__main__': sys.exit(main(*sys.argv[1:]))
