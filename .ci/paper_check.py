"""The published paper-scale verdicts against a fresh `eb-reproduce --scale paper --from-records`.

Usage: python .ci/paper_check.py PUBLISHED_claims.json REGENERATED_claims.json
Claims are compared by id. Fails (exit 1) when the published file holds no claims, an id repeats, a claim exists in
one file only, any claim's statement, verdict, declared verdict, reason or measured numbers differ, the experiments'
status or figures differ, the records' summary differs, or any verdict is unexpected (a disagreement not declared,
or a declared one that holds). Measured numbers are compared as the exact strings the claims print (the same records
and code give the same strings; a quantity computed at judge time prints round-off as a bound, since its digits
differ between CPUs): a change in a claim's code must come with the republished report
(`eb-reproduce --scale paper --from-records`, then commit results/paper)."""
import json, sys

FIELDS = ('experiment', 'kind', 'statement', 'measured', 'holds', 'expected', 'why', 'verdict', 'declared_after_data')

def main(published:str, regenerated:str) -> int:
    a, b = (json.load(open(p)) for p in (published, regenerated))
    if not a['claims']: print(f"{published} holds no claims: nothing to check against"); return 1
    for name, cl in (('published', a['claims']), ('regenerated', b['claims'])):
        ids = [c['id'] for c in cl]
        if len(set(ids)) != len(ids): print(f"the {name} claims repeat an id: they cannot be compared"); return 1
    ca, cb = {c['id']: c for c in a['claims']}, {c['id']: c for c in b['claims']}
    bad = [f"only published: {k}" for k in sorted(ca.keys() - cb.keys())]
    bad += [f"only regenerated: {k}" for k in sorted(cb.keys() - ca.keys())]
    for k in sorted(ca.keys() & cb.keys()):
        for f in FIELDS:
            if ca[k].get(f) != cb[k].get(f): bad.append(f"{k}: {f} {ca[k].get(f)!r} published, {cb[k].get(f)!r} now")
    for f in ('experiments', 'not_evaluated', 'records', 'scale'):
        if a.get(f) != b.get(f): bad.append(f"{f} differs: published {a.get(f)!r}, now {b.get(f)!r}")
    unexpected = [c['id'] for c in b['claims'] if c['verdict'] not in ('holds', 'disagrees (declared)', 'no reading')]
    from entropic_bound.harness.claims import Counts           # the three counts, as every report words them
    print(f"paper scale from the published records: {Counts.of(b['claims']).line()}; "
          f"not evaluated: {', '.join(b['not_evaluated']) or 'none'}")
    if unexpected: bad += [f"unexpected verdict: {i}" for i in unexpected]
    if bad:
        print(f"{len(bad)} differences from the published claims.json, or unexpected verdicts "
              "(republish: eb-reproduce --scale paper --from-records, then commit results/paper):")
        print('\n'.join('  ' + x for x in bad[:50])); return 1
    print("identical to the published claims.json, no unexpected verdict")
    return 0

if __name__ == '__main__': sys.exit(main(*sys.argv[1:]))
