"""Milliseconds per training step of one paper-scale ensemble (ladder/capacity: L=32, d=16, 5 teachers × 5 sizes × 3
seeds = 75 softmax heads, batch 256, Adam, one torch thread), from the slope between 20- and 60-step `fit` runs.
BENCHMARKS.md, section "The ensemble trainer".

Usage: python bench/trainer_step.py [KIND] [REPEATS]
       python bench/trainer_step.py --parts     # two component timings at the same size (medians of 15)
To compare two versions of the code, run it with PYTHONPATH pointing at each checkout in turn, alternating:
    git worktree add /tmp/old <commit>; for i in 1 2; do PYTHONPATH=/tmp/old python bench/trainer_step.py; python bench/trainer_step.py; done"""
import sys, time, torch
torch.set_num_threads(1)
from entropic_bound.theorems import ladder as la
from entropic_bound.train import fit
from entropic_bound.models import AttentionHead
from entropic_bound.tasks import Teachers

def main(kind:str='softmax', repeats:int=2):
    cfg = [c for c in la.capacity_configs('paper', 'cpu') if c['kind'] == kind][-1]
    tasks = [la.rung_task(cfg['kind'], cfg['L'], cfg['d'], cfg['k'], cfg['gamma'], cfg['beta'], s) for s in cfg['teacher_seeds']]
    members = [(t, r, s) for t in range(len(tasks)) for r in cfg['sizes'] for s in range(cfg['seeds'])]
    T, t0 = Teachers(tasks, members=[t for t, _, _ in members]), tasks[0]
    def run(steps):
        m = AttentionHead(t0.d, [r for _, r, _ in members], kind=t0.kind, beta=t0.beta, gamma=t0.gamma,
                          pos=t0.pos if t0.gamma < 1 else None, seeds=range(len(members)))
        a = time.perf_counter()
        fit(m, T, steps=steps, lr=3e-2, optimizer='adam', batch_size=cfg['batch'], lr_schedule='cosine', seed=0)
        return time.perf_counter() - a
    run(3)
    ts = [(run(20), run(60)) for _ in range(repeats)]
    print(f"{kind}, E={len(members)}, L={cfg['L']}, d={cfg['d']}, batch={cfg['batch']}: ms/step",
          sorted(round(1000 * (b - a) / 40, 1) for a, b in ts))

def parts():
    "The softmax over a strided key axis against the contiguous one, and the per-step gather of every member's targets."
    import statistics
    def tm(f):
        ts = []
        for _ in range(15): a = time.perf_counter(); f(); ts.append(time.perf_counter() - a)
        return 1e3 * statistics.median(ts)
    n, L, E = 13, 32, 75                                     # one chunk of 2^20 logits at 75 members
    S = torch.randn(n, L, E * L); S2 = S.reshape(n * E * L, L).clone()
    a, b = tm(lambda: torch.softmax(S, 1)), tm(lambda: torch.softmax(S2, -1))
    print(f"softmax of {S.numel()} logits: over the strided key axis {a:.2f} ms, over the contiguous last axis {b:.2f} ms ({a / b:.1f}x)")
    Y, members = torch.randn(5, 256, L, 16), [t for t in range(5) for _ in range(15)]
    print(f"gather of every member's targets (75 members, batch 256, d_v 16, {75 * 256 * L * 16 * 4 / 1e6:.0f} MB): {tm(lambda: Y[members]):.1f} ms")

if __name__ == '__main__':
    if sys.argv[1:2] == ['--parts']: parts()
    else: main(*(sys.argv[1:2] or ['softmax']), *[int(x) for x in sys.argv[2:3]])
