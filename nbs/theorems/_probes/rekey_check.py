"""A re-keyed paper capacity record against a fresh run of its config (nbs/theorems/31_attention_capacity.ipynb, § Restarts: when the optimum is reached).

`carried_prefix` re-keyed the 16 paper capacity records from 8 restarts below k to the derived R = 4. A member trains
independently of the others bit for bit at the quick shapes (tested in the notebook); at the paper shapes the CPU
trainer's chunking depends on the ensemble size, so a re-keyed record equals a fresh R-restart run only up to
summation order. This script runs given records' configs afresh (one thread) and prints, per record, the largest
relative difference of any slot whose relative excess is above 1e-6 (every cell the claims read off a floor), the
largest at any slot (the 1e-14 floor is float32 round-off), and the wall time.

    python nbs/theorems/_probes/rekey_check.py 44fd63c7e027f477 42c824d31f26e36f     # linear d=16 k=3; softmax β=4 d=16 k=3: ≈ 8 min
"""
import json, sys, time, torch
from entropic_bound.theorems.attention_rank import capacity_configs, capacity_experiment

if __name__ == '__main__':
    torch.set_num_threads(1)
    for key in sys.argv[1:]:
        rec = json.load(open(f'results/paper/attention_rank/capacity/{key}.json'))
        cfg = next(c for c in capacity_configs('paper')
                   if all(c.get(a) == v for a, v in rec['config'].items() if a != 'device'))
        t0 = time.time(); m = capacity_experiment(cfg); wall = time.time() - t0
        old = {tuple(s): r for s, r in zip(rec['metrics']['slots'], rec['metrics']['relative'])}
        new = {tuple(s): float(r) for s, r in zip(m['slots'], m['relative'])}
        if set(old) != set(new): raise SystemExit(f"{key}: the fresh run's slots differ from the record's")
        rel = lambda s: abs(new[s] - old[s]) / max(abs(old[s]), 1e-300)
        above = max((s for s in old if old[s] > 1e-6), key=rel)
        anyw = max(old, key=rel)
        print(f"{key} ({cfg['kind']} β={cfg['beta']:g}, d={cfg['d']}, k={len(cfg['spectrum'])}, {len(old)} slots): "
              f"largest relative difference above 1e-6 {rel(above):.1e} (slot {above}: {old[above]:.6g} → "
              f"{new[above]:.6g}); at any slot {rel(anyw):.2g} (slot {anyw}: {old[anyw]:.3g} → {new[anyw]:.3g}); "
              f"wall {wall:.0f} s", flush=True)
