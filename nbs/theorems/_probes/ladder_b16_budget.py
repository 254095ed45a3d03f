"""Does the budget decide the quick scale's R2-softmax β = 16 capacity? (nbs/theorems/22_ladder_table.ipynb, § The near-argmax rung)

At the quick scale (L = 16, d = 8) the size-k students of R2-softmax at β = 16 (γ = 0: fixed positions, near-argmax
attention) end above the capacity tolerance TOL, a declared disagreement. This script retrains the quick β = 16
capacity config at γ = 0 at 800 steps (the old quick budget), 3000 (the budget of both scales) and 12000, with the quick
scale's 3 init seeds, one thread, and prints each teacher's best normalised excess per size and the capacity read at
TOL. About 3 minutes (7 s, 43 s and 122 s).

    python nbs/theorems/_probes/ladder_b16_budget.py
"""
import time, numpy as np, torch
from entropic_bound.theorems.ladder_rungs import capacity_configs, capacity_experiment, normalised_excess

if __name__ == '__main__':
    torch.set_num_threads(1)
    for steps in (800, 3000, 12000):
        for c in capacity_configs('quick'):
            if c['kind'] != 'softmax' or c['beta'] != 16 or c['gamma'] != 0: continue
            c = dict(c, steps=steps)
            t0 = time.time(); m = capacity_experiment(c)
            ex = normalised_excess(m, c)
            print(f"γ = {c['gamma']:g}, β = {c['beta']:g}, {steps} steps: best normalised excess per teacher (sizes "
                  f"{c['sizes']}): {np.round(ex.min(-1), 6).tolist()}; capacity at TOL {m['capacity']}; "
                  f"{time.time() - t0:.0f} s", flush=True)
