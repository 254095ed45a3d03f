"""What the recovery law's tolerance absorbs (nbs/theorems/32_attention_recovery.ipynb, § "What the tolerance absorbs").

The `law` claims accept an escape within 2 e-folds (the direction's transition width at θ) + 1 step of its law. This
script measures, per recovery config (σ = 0) of a scale, the sizes of the terms the laws neglect:

- sampling: the same initialisation trained on three data streams (seeds 1, 2, 3; seed 1 is the record's), the
  spread of each direction's escape step, in e-folds (SD over the streams, pooled over directions);
- softmax's first-order rate at t = 0: r_i = 2η u_iᵀ G₀ g_i / (ρ s_i), G₀ = −∂ℰ/∂W at uniform attention with the
  value map at W_V*, by Monte Carlo on 2^20 sequences and on 2^18 independent ones (both printed: their
  difference shows the MC error);
  the law takes r_i = 1;
- the law's deviation (measured − law)/e-fold on the three streams: its mean (the bias) and spread.

One thread; about 1 minute at the quick scale and 14 minutes at the paper scale.

    python nbs/theorems/_probes/recovery_law_terms.py quick
"""
import math, sys, time, torch
import entropic_bound.theorems.attention_rank_recovery as ar
from entropic_bound.tasks import AttentionTask, Teachers
from entropic_bound.models import AttentionHead
from entropic_bound.train import fit

def initial_rates(task, lr:float, n:int, seed:int=123, chunk:int=2 ** 13) -> list:
    "r_i = 2η u_iᵀG₀g_i/(ρ s_i): softmax's kernel gradient at W = 0, W_V = W_V*, against the law's ρ s_i (float64, MC)."
    d = task.d
    h = AttentionHead(d, [d], kind='softmax', beta=task.beta, seeds=[0]).double()
    with torch.no_grad():                                    # W = W_Q W_Kᵀ with W_Q = I, W_K = 0: ∂ℰ/∂W = (∂ℰ/∂W_K)ᵀ
        h.W_Q.copy_(torch.eye(d, dtype=torch.float64)[None]); h.W_K.zero_(); h.W_V.copy_(task.W_V.double()[None])
    gen, g = torch.Generator().manual_seed(seed), torch.zeros(d, d, dtype=torch.float64)
    for _ in range(n // chunk):
        X = task.inputs(chunk, gen, 'cpu', torch.float64)
        h.zero_grad(); (h.loss(X, task.target(X))[0] * chunk / n).backward(); g += h.W_K.grad[0].T
    U, S, Vh = torch.linalg.svd(task.W.double())
    rho = ar.kernel_rate(lr, task.beta, task.L, d, task.d_v)
    return [2 * lr * float(U[:, i] @ (-g) @ Vh[i]) / (rho * float(S[i])) for i in range(task.intrinsic_rank)]

def streams(cfg:dict, seeds=(1, 2, 3)) -> tuple:
    "Escape steps (stream, teacher, direction) from one initialisation on each data stream; the law's steps, e-folds."
    tasks = [AttentionTask(cfg['L'], cfg['d'], cfg['spectrum'], kind=cfg['kind'], beta=cfg['beta'], sigma=cfg['sigma'],
                           seed=s) for s in cfg['teacher_seeds']]
    E, out = len(tasks), []
    for seed in seeds:
        h = AttentionHead(cfg['d'], [cfg['d']] * E, kind=cfg['kind'], beta=cfg['beta'], seeds=list(range(E)),
                          init_scale=cfg['init'])
        init = {q: p.detach().double().clone() for q, p in (('Q', h.W_Q), ('K', h.W_K), ('V', h.W_V))}
        tr = ar.DirectionTracker(h, tasks)
        fit(tr, Teachers(tasks), steps=cfg['steps'], lr=cfg['lr'], optimizer='gd', batch_size=cfg['batch'], seed=seed)
        track = torch.stack(tr.track).double()
        level = [ar.escape_level(init['Q'][e] @ init['K'][e].T, cfg['kind'], cfg['spectrum']) for e in range(E)]
        out.append([ar.escape_times(track[:, e], level[e]) for e in range(E)])
    law = [ar.recovery_law(cfg['kind'], {q: x[e] for q, x in init.items()}, tasks[e], cfg['lr'], cfg['steps'],
                           level[e]) for e in range(E)]
    return out, law, tasks

if __name__ == '__main__':
    torch.set_num_threads(1)
    scale = sys.argv[1] if len(sys.argv) > 1 else 'quick'
    for cfg in [c for c in ar.recovery_configs(scale) if c['sigma'] == 0]:
        t0 = time.time()
        runs, law, tasks = streams(cfg)
        dev, sd = [], []
        for e in range(len(tasks)):
            for i in range(len(law[e][0])):
                ts = [r[e][i] for r in runs]
                if None in ts or law[e][0][i] is None: continue
                ef = law[e][1][i]
                dev.append([(t - law[e][0][i]) / ef for t in ts])
                m = sum(ts) / len(ts)
                sd.append(math.sqrt(sum((t - m) ** 2 for t in ts) / (len(ts) - 1)) / ef)
        pooled = math.sqrt(sum(x * x for x in sd) / len(sd))
        flat = [x for row in dev for x in row]
        bias = sum(flat) / len(flat)
        print(f"{scale} {cfg['kind']} (L = {cfg['L']}, d = {cfg['d']}, {len(tasks)} teachers, batch {cfg['batch']}): "
              f"sampling SD of the escape step {pooled:.3f} e-folds (pooled over {len(sd)} directions; largest "
              f"{max(sd):.3f}); (measured − law)/e-fold on 3 streams: mean {bias:+.3f}, range "
              f"[{min(flat):+.2f}, {max(flat):+.2f}], |largest| {max(map(abs, flat)):.2f} against the tolerance 2 "
              f"(+1 step); late {sum(x > 0 for x in flat)}/{len(flat)}", flush=True)
        if cfg['kind'] == 'softmax':
            for e, t in enumerate(tasks):
                a, b = initial_rates(t, cfg['lr'], 2 ** 18, seed=124), initial_rates(t, cfg['lr'], 2 ** 20)
                print(f"  teacher {e}: first-order rate at t = 0 / the law's ρ s_i: "
                      f"{[round(x, 3) for x in b]} (2^18 other sequences: {[round(x, 3) for x in a]})", flush=True)
        print(f"  wall {time.time() - t0:.0f} s", flush=True)
