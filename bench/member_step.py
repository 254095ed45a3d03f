"""Seconds per member-step of the trained-ensemble classes of the paper scale (one torch thread): one Adam step of
fresh-batch training (forward, fused loss, backward, step) at each class's ensemble size E and at E/4 (the rules shrink
the ensemble as members leave), medians of interleaved repeats. With --pair, the same measured while a second process
runs the same benchmark (two 1-thread workers share the memory system: the slowdown `--workers 2` pays).
BENCHMARKS.md, section "The ensemble trainer".

With --linear-path mixing, linear heads take the mixing path (`SharedAttention`, the trainer before associativity):
the 'before' of the associative path.

Usage: python bench/member_step.py [--pair] [--reps 5] [--kind linear] [--linear-path mixing]
(one JSON line per class, appended to bench/member_step.jsonl)"""
from __future__ import annotations
import argparse, json, statistics, subprocess, sys, time
from pathlib import Path
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from entropic_bound.models import AttentionHead
from entropic_bound.tasks import AttentionTask, Teachers
from entropic_bound.train import Active

# (name, kind, d, E): the ladder's trained points (5 teachers × 5 sizes × 3 seeds) and attention_rank's capacity
# ensembles with restarts at every r (5 teachers × ranks 1..k+1 × 8 restarts), L = 32, batch 256
CLASSES = [('ladder softmax', 'softmax', 16, 75), ('ladder linear', 'linear', 16, 75),
           ('attention_rank softmax d=8 k=3', 'softmax', 8, 160), ('attention_rank softmax d=8 k=5', 'softmax', 8, 240),
           ('attention_rank softmax d=16 k=3', 'softmax', 16, 160),
           ('attention_rank softmax d=16 k=5', 'softmax', 16, 240),

           ('attention_rank linear d=8 k=5', 'linear', 8, 240), ('attention_rank linear d=16 k=5', 'linear', 16, 240)]

def step_seconds(kind:str, d:int, E:int, reps:int, L:int=32, B:int=256, path:str='associative') -> float:
    "Median seconds of one training step of an E-member ensemble (5 teachers, shared inputs)."
    tasks = [AttentionTask(L, d, [1.5, 1., .5], kind=kind, seed=s) for s in range(5)]
    T = Teachers(tasks, members=[e % 5 for e in range(E)])
    h = AttentionHead(d, [1 + e % 6 if 1 + e % 6 <= d else d for e in range(E)], kind=kind, seeds=range(E))
    if kind == 'linear': h.linear_path = path
    act = Active(h, T, 'adam', 1e-3, 'cpu')
    X, Y = T.sample(B, seed=0, select=False)
    def step():
        act.opt.zero_grad(set_to_none=False); act.objective(False, X, Y).sum().backward(); act.step()
    step(); step()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter(); step(); step(); ts.append((time.perf_counter() - t0) / 2)
    return statistics.median(ts)

def main(argv=None):
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument('--pair', action='store_true', help='measure while a second copy runs')
    a.add_argument('--reps', type=int, default=5)
    a.add_argument('--kind', choices=['linear', 'softmax'], help='only the classes of this kind')
    a.add_argument('--linear-path', default='associative', choices=['associative', 'mixing'])
    a.add_argument('--quiet', action='store_true', help=argparse.SUPPRESS)    # the second copy
    a = a.parse_args(argv)
    torch.set_num_threads(1)
    other = subprocess.Popen([sys.executable, __file__, '--quiet', '--reps', str(a.reps + 2)],
                             stdout=subprocess.DEVNULL) if a.pair else None
    try:
        for name, kind, d, E in CLASSES:
            if a.kind and kind != a.kind: continue
            path = a.linear_path if kind == 'linear' else 'shared'
            full, part = (step_seconds(kind, d, n, a.reps, path=path) for n in (E, max(5, E // 4)))
            if not a.quiet:
                row = dict(cls=name, kind=kind, d=d, E=E, pair=a.pair, path=path, s_per_member_step=full / E,
                           s_per_member_step_quarter=part / max(5, E // 4), date=time.strftime('%Y-%m-%d %H:%M'))
                print(json.dumps(row), flush=True)
                with open(ROOT / 'bench' / 'member_step.jsonl', 'a') as f: f.write(json.dumps(row) + '\n')
    finally:
        if other is not None: other.kill()

if __name__ == '__main__': main()
