"""Where a quick-scale training step spends its time, and what a transposed layout of `SharedAttention` would buy.
BENCHMARKS.md, section "The main job: `eb-reproduce` at the quick scale".

The quick scale's `ladder/capacity` ensembles (L = 16, d = 8, 3 teachers × sizes {2, 3} × 3 seeds = 18 heads,
batch 64, Adam, one torch thread) at a softmax point (γ = 0.5, β = 4) and a linear one (γ = 0.5). Three measurements,
medians of alternating repeats (single timings on the shared 2-core machine vary by ±20%):

1. `parts`: one step's pieces, ms: the teachers' fresh batch (`Teachers.sample`), the fused loss, its backward, Adam.
2. `ops`: MKL's batched product at these shapes is 3–4× slower when the output has 8 columns than when the same
   product is written transposed, with 288 (L·E) or 1,024 (n·L) columns.
3. `layouts`: the fused loss with its gradients, the library's `SharedAttention` against a prototype that writes
   every 8-column product transposed (A X as Xᵀ Aᵀ, the value map as W_Vᵀ (AX)ᵀ, ∂U as Zᵀ ∂Sᵀ) and pays for it with
   three permuting copies; the two agree to float32 round-off (asserted, and printed), and the prototype is not used by
   the library. The library's time includes `autograd.Function`'s and `autograd.grad`'s own overhead, which the bare
   prototype does not pay: its gain is an upper bound.

Usage: python bench/step_layouts.py [parts|ops|layouts ...]   (default: all three; about a minute)"""
import sys, time, statistics, torch
torch.set_num_threads(1)
from entropic_bound.theorems.ladder_rungs import capacity_configs, rung_task
from entropic_bound.tasks import Teachers
from entropic_bound.models import AttentionHead, SharedAttention, Workspace

def med(f, n:int=200, reps:int=5) -> float:
    "Median over `reps` of the mean µs of `n` calls."
    f(); out = []
    for _ in range(reps):
        a = time.perf_counter()
        for _ in range(n): f()
        out.append((time.perf_counter() - a) / n * 1e6)
    return statistics.median(out)

def ensemble(kind:str, gamma:float=.5, beta:float=4):
    "The quick config's teachers, its 18 students and their per-teacher index, as `capacity_experiment` builds them."
    c = [c for c in capacity_configs('quick') if c['kind'] == kind and c['gamma'] == gamma and not c.get('first_seed')
         and (kind == 'linear' or c['beta'] == beta)][0]
    tasks = [rung_task(c['kind'], c['L'], c['d'], c['k'], c['gamma'], c['beta'], s) for s in c['teacher_seeds']]
    mem = [(t, r, s) for t in range(len(tasks)) for r in c['sizes'] for s in range(c['seeds'])]
    T, t0 = Teachers(tasks, members=[t for t, _, _ in mem]), tasks[0]
    h = AttentionHead(t0.d, [r for _, r, _ in mem], kind=t0.kind, beta=t0.beta, gamma=t0.gamma, pos=t0.pos,
                      seeds=range(len(mem)))
    return c, T, h, torch.tensor(T.members)

def parts():
    for kind in ('softmax', 'linear'):
        c, T, h, mem = ensemble(kind)
        opt = torch.optim.Adam(h.parameters(), lr=3e-2)
        X, Y = T.sample(c['batch'], seed=1, select=False)
        def step():
            l = h.loss(X, Y, members=mem); opt.zero_grad(); l.sum().backward()
        s = med(lambda: T.sample(c['batch'], seed=1, select=False))
        f = med(lambda: h.loss(X, Y, members=mem))
        fb = med(step)
        a = med(opt.step)
        print(f"{kind:8s} ms per step: sample {s / 1e3:.2f}, loss {f / 1e3:.2f}, backward {(fb - f) / 1e3:.2f}, "
              f"Adam {a / 1e3:.2f}")

N, L, E, D = 64, 16, 18, 8          # one chunk: the whole batch of 64 at 18 members

def ops():
    X, A = torch.randn(N, L, D), torch.softmax(torch.randn(N, L * E, L), -1)
    AXe, WV = torch.randn(E, N * L, D), torch.randn(E, D, D)
    rows = [('A X: (L·E × L)(L × d) per sequence, 8 columns', lambda: torch.bmm(A, X)),
            ('the same, transposed: (d × L)(L × L·E), 288 columns', lambda: torch.bmm(X.mT, A.mT)),
            ('(AX) W_V: (n·L × d)(d × d_v) per member, 8 columns', lambda: torch.bmm(AXe, WV)),
            ('the same, transposed: (d_v × d)(d × n·L), 1,024 columns', lambda: torch.bmm(WV.mT, AXe.mT))]
    for name, f in rows: print(f"{med(f):7.0f} µs  {name}")

def prototype(W, WV, Z, X, Y, mem, softmax:bool, buf:dict):
    "The fused loss (E,) and its gradients (∂W, ∂W_V) for g = 1, every 8-column product written transposed."
    n, L_, d = Z.shape; E_, dv = W.shape[0], WV.shape[-1]
    z = lambda k, *s: buf.setdefault(k, torch.empty(*s, dtype=Z.dtype))
    W2 = W.permute(1, 0, 2).reshape(d, E_ * d)
    U = torch.mm(Z.reshape(n * L_, d), W2, out=z('U', n * L_, E_ * d)).view(n, L_ * E_, d)
    S = torch.bmm(U, Z.mT, out=z('S', n, L_ * E_, L_))
    A = torch.ops.aten._softmax.out(S, 2, False, out=z('A', n, L_ * E_, L_)) if softmax else S
    AXt = torch.bmm(X.mT, A.mT, out=z('AXt', n, d, L_ * E_))                         # [b, c, (q, e)]
    AXe = z('AXe', E_, n, L_, d); AXe.copy_(AXt.view(n, d, L_, E_).permute(3, 0, 2, 1))   # copy 1
    Ot = torch.bmm(WV.mT, AXe.view(E_, n * L_, d).mT, out=z('Ot', E_, dv, n * L_))
    Rt = torch.sub(Ot.view(E_, dv, n, L_), Y.index_select(0, mem).permute(0, 3, 1, 2), out=z('Rt', E_, dv, n, L_))
    loss = (Rt * Rt).sum((1, 2, 3)) / (n * L_ * dv)
    dOt = Rt.view(E_, dv, n * L_) * (2 / (n * L_ * dv))
    dWV = torch.bmm(AXe.view(E_, n * L_, d).mT, dOt.mT)
    dAXt = torch.bmm(WV, dOt, out=z('dAXt', E_, d, n * L_))
    dAXq = z('dAXq', n, L_, E_, d); dAXq.copy_(dAXt.view(E_, d, n, L_).permute(2, 3, 0, 1))   # copy 2
    dA = torch.bmm(dAXq.view(n, L_ * E_, d), X.mT, out=z('dA', n, L_ * E_, L_))
    dS = torch.ops.aten._softmax_backward_data.out(dA, A, 2, dA.dtype, grad_input=z('dS', n, L_ * E_, L_)) \
        if softmax else dA
    dUt = torch.bmm(Z.mT, dS.mT, out=z('dUt', n, d, L_ * E_))
    dU = z('dU', n, L_, E_, d); dU.copy_(dUt.view(n, d, L_, E_).permute(0, 2, 3, 1))          # copy 3
    dW2 = torch.mm(Z.reshape(n * L_, d).T, dU.view(n * L_, E_ * d))
    return loss, dW2.view(d, E_, d).permute(1, 0, 2), dWV

def layouts():
    torch.manual_seed(0)
    W, WV = torch.randn(E, D, D) * .3, torch.randn(E, D, D)
    Z, X, Y, mem = torch.randn(N, L, D), torch.randn(N, L, D), torch.randn(3, N, L, D), torch.tensor([0, 1, 2] * 6)
    ws, buf = Workspace(), {}
    def library(W, WV, softmax):
        W, WV = W.clone().requires_grad_(), WV.clone().requires_grad_()
        l = SharedAttention.apply(W, WV, Z, X, softmax, Y, ws, True, mem)
        return (l.detach(), *torch.autograd.grad(l.sum(), [W, WV]))
    for softmax in (True, False):
        a, b = prototype(W, WV, Z, X, Y, mem, softmax, buf), library(W, WV, softmax)
        err = max(float((x - y).abs().max() / y.abs().max()) for x, y in zip(a, b))
        assert all(bool(torch.isfinite(x).all()) for x in a) and err <= 1e-5, f"the prototype disagrees: {err}"
        old, new = [], []
        for _ in range(6):
            old.append(med(lambda: library(W, WV, softmax), 100, 1))
            new.append(med(lambda: prototype(W, WV, Z, X, Y, mem, softmax, buf), 100, 1))
        o, p = statistics.median(old), statistics.median(new)
        print(f"{'softmax' if softmax else 'linear':8s} loss + gradients: library {o / 1e3:.2f} ms, transposed "
              f"prototype {p / 1e3:.2f} ms ({1 - p / o:.0%} less); largest relative difference {err:.1e}")

if __name__ == '__main__':
    for what in sys.argv[1:] or ['parts', 'ops', 'layouts']: globals()[what]()
