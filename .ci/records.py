"""Record accounting of a CI run, from the file $EB_RECORD_LOG names: one line per record a `ResultsCache` computed
or read, `<step> computed|read <experiment> <key> <folder>`.

Usage: python .ci/records.py LOG CLAIMS.json MAIN_FOLDER [STEP]
CLAIMS.json is the main line's claims.json (its `records` name the sweeps the main line runs); MAIN_FOLDER is the
results folder it wrote (`$out`). Prints, per step (or for STEP alone), the records of those sweeps computed and read,
and the records tests computed or read in their own temporary caches (toy sweeps, resumed demos, the executors'
identity checks, a notebook's diagnostics). Fails (exit 1) when a record of the main line's sweeps was computed more
than once outside tests' own caches (into the main folder, the committed results, or any other lasting folder): each
quick record is computed once, by the main line, and read after that."""
import json, sys, tempfile
from collections import Counter, defaultdict
from pathlib import Path

def main(log:str, claims:str, main_folder:str, only:str=None) -> int:
    sweeps = {e for x in json.load(open(claims))['records'].values() for e in x}
    main_root, tmp = Path(main_folder).resolve(), Path(tempfile.gettempdir()).resolve()
    def own(root:str) -> bool:                            # a test's own temporary cache (not the main line's folder)
        r = Path(root).resolve()
        return r.is_relative_to(tmp) and not r.is_relative_to(main_root)
    per, computed, aside = defaultdict(Counter), Counter(), Counter()
    for line in open(log).read().splitlines():
        if not line.strip(): continue
        step, verb, experiment, key, root = line.split(' ', 4)
        where = 'tests' if own(root) else ('main' if experiment in sweeps else 'other')
        per[step][(verb, where)] += 1
        if verb == 'computed' and experiment in sweeps:
            (aside if where == 'tests' else computed)[(experiment, key)] += 1
    for step in ([only] if only else list(per)):
        c = per.get(step, Counter())
        print(f"records, {step}: {c[('computed', 'main')]} computed and {c[('read', 'main')]} read of the main line's "
              f"sweeps; {c[('computed', 'tests')]} computed and {c[('read', 'tests')]} read in tests' own caches"
              + (f"; {c[('computed', 'other')]} computed, {c[('read', 'other')]} read elsewhere"
                 if c[('computed', 'other')] + c[('read', 'other')] else ''))
    if aside:
        print(f"{len(aside)} records of the main line's sweeps were also computed by tests in their own caches "
              f"({', '.join(sorted({e for e, _ in aside}))}): what they test is the computing itself")
    twice = sorted(k for k, n in computed.items() if n > 1)
    if twice:
        print(f"{len(twice)} records of the main line's sweeps computed more than once in this run:")
        print('\n'.join(f"  {e} {k} ({computed[(e, k)]} times)" for e, k in twice[:30])); return 1
    print(f"no record computed twice ({sum(computed.values())} records of the main line's sweeps computed once each)")
    return 0

if __name__ == '__main__': sys.exit(main(*sys.argv[1:]))
