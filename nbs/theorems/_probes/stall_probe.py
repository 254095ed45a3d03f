"""The two paper-scale stalls at r ≥ k (nbs/theorems/33_attention_estimators.ipynb, § At the paper scale): stationary points or slow runs?

Each stalled member is retrained alone with its own seeds (`stall_probe`), with a second budget from its endpoint,
and once more with 4× the budget from its initialisation; a member of the same config that reaches the infimum is the
contrast. One thread; about 6 minutes on the 2-core CI machine. Prints one line per run and the verdicts of
`_verdict` in the notebook (stationary: g within 3 SEs of 0; descends: the second budget lowers R by > 3 combined SEs).

    python nbs/theorems/_probes/stall_probe.py
"""
import math, time, torch
from entropic_bound.theorems.attention_rank_capacity import capacity_configs, capacity_restarts_configs, stall_probe, AGREE_Z

torch.set_num_threads(1)
c1 = next(c for c in capacity_configs('paper') if c['kind'] == 'softmax' and c['beta'] == 4. and c['d'] == 8
          and len(c['spectrum']) == 3)
c2 = next(c for c in capacity_restarts_configs('paper') if c['kind'] == 'softmax' and c['beta'] == 16.
          and c['d'] == 16 and c['rank'] == 5)
RUNS = dict(stall_1=(c1, (3, 0, 0), None), contrast_1=(c1, (3, 0, 1), None),
            stall_2=(c2, (5, 2, 0), None), contrast_2=(c2, (5, 1, 0), None),
            stall_1_4x=(dict(c1, steps=4 * c1['steps']), (3, 0, 0), 0),
            stall_2_4x=(dict(c2, steps=4 * c2['steps']), (5, 2, 0), 0))

def verdict(p):
    if 'relative_more' not in p: return f"g within {AGREE_Z:g} SE of 0: {p['grad'] <= AGREE_Z * p['grad_se']}"
    return (f"g within {AGREE_Z:g} SE of 0: {p['grad'] <= AGREE_Z * p['grad_se']}; the second budget lowers R by more "
            f"than {AGREE_Z:g} SE: {p['relative'] - p['relative_more'] > AGREE_Z * math.hypot(p['se'], p['se_more'])}")

if __name__ == '__main__':
    for name, (cfg, slot, more) in RUNS.items():
        t0 = time.time()
        p = stall_probe(cfg, slot, more=more)
        print(f"{name}: {cfg['kind']} β={cfg['beta']:g}, d={cfg['d']}, k={len(cfg['spectrum'])}, slot {slot}, "
              f"{cfg['steps']} steps: " + ', '.join(f'{k} {v:.6g}' for k, v in p.items())
              + f"; {verdict(p)}; wall {time.time() - t0:.0f} s", flush=True)
