#!/usr/bin/env python
"""What a factored checkpoint (`eb-compress`) saves, each number paired with the original in the same run:

BENCHMARKS.md, "What a factored checkpoint saves".
parameters and file bytes, query-key multiply-adds per token at the context length, key-cache bytes per token, CPU
latency of a forward pass (median of repeats, original and factored interleaved), and a sanity line (the measured
parameter saving against the count the widths imply). Run it under the shared CPU lock:

    flock /tmp/eb-cpu.lock python bench/compress_savings.py            # the byte LM's shape and MiniLM
    python bench/compress_savings.py --models minilm --lengths 64 --repeats 5   # shorter

The byte LM is a `RankedGPT` of the task-rank study's paper sizes (2 layers x 4 heads of 16, d = 64, context 64)
exported as a GPT-2 (`lm.export.save_for_heads`); no trained weights are stored in the repository, so it is the
untrained member (seed 0): sizes and timings do not depend on the weights, quality would. MiniLM is the packaged
all-MiniLM-L6-v2 (trained). Ranks: every head at `--rank-share` of d_head, the weights' SVD directions ('raw', no
fit text); MiniLM's query biases add one width per head (the key-only term the truncation keeps).
"""
import argparse, json, statistics, sys, tempfile, time
from pathlib import Path
import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from entropic_bound.real.loading import load_model, quiet, resolve_model
from entropic_bound.real.truncation import model_shape
from entropic_bound.real.factored import factor_model, save_factored, load_factored
from entropic_bound.real.compress import savings


def byte_lm(folder: Path) -> Path:
    "The paper-size byte LM (untrained member 0), exported as a GPT-2 with the byte tokenizer."
    from entropic_bound.lm.model import LMConfig, RankedGPT
    from entropic_bound.lm.preregistration import PAPER
    from entropic_bound.lm.export import save_for_heads
    cfg = LMConfig(d=PAPER.d, n_layer=PAPER.n_layer, n_head=PAPER.n_head, L=PAPER.L)
    return save_for_heads(RankedGPT(cfg, [cfg.d_head], seeds=[0]), 0, folder)


def n_params(m) -> int:
    return sum(p.numel() for p in {id(p): p for p in m.parameters()}.values())


def latency(models: dict, L: int, vocab: int, repeats: int) -> dict:
    "Median seconds of a batch-1 forward at length L, the models interleaved repeat by repeat."
    x = torch.randint(0, vocab, (1, L), generator=torch.Generator().manual_seed(0))
    times = {k: [] for k in models}
    with torch.no_grad():
        for m in models.values(): m(input_ids=x, use_cache=False)                 # warm up
        for _ in range(repeats):
            for k, m in models.items():
                t0 = time.perf_counter(); m(input_ids=x, use_cache=False); times[k].append(time.perf_counter() - t0)
    return {k: statistics.median(v) for k, v in times.items()}


def bench(name: str, folder: str, share: float, lengths: list, repeats: int, out: Path) -> list:
    model, tok, fam = load_model(folder, full=True)
    sh = model_shape(model, fam)
    ctx = fam.context_length(model.config)
    r = np.full((sh['n_layers'], sh['n_heads']), round(share * sh['d_head']))
    f, info = factor_model(model, r, kind='raw', family=fam)
    with quiet(): model.save_pretrained(out / f'{name}-original')
    save_factored(f, info, out / f'{name}-factored')
    g = load_factored(out / f'{name}-factored')
    sv = savings(info)
    w = np.asarray(info['widths'])
    pad = sum(sh['n_heads'] * max(ws) for ws in info['widths'])                   # the padded product per position
    fb = [(out / f'{name}-{k}' / 'model.safetensors').stat().st_size for k in ('original', 'factored')]
    p0, p1 = n_params(model), n_params(g)
    bias_q = sh['n_heads'] * sh['d_head'] if fam.get(fam.attention_modules(model)[0], 'q')[1] is not None else 0
    bias_k = sh['n_kv_heads'] * sh['d_head'] if info['k_bias'] else 0
    per_q = w.repeat(sh['n_heads'] // sh['n_kv_heads'], 1).sum()
    implied = (sv['qk_weights'][0] - sv['qk_weights'][1] + sh['n_layers'] * (bias_q + bias_k)
               - per_q - (w.sum() if info['k_bias'] else 0))
    bytes_per = g.dtype.itemsize
    causal = fam.causal(model.config)
    rows = [dict(model=name, what='shape', value=f"{sh['n_layers']} layers x {sh['n_heads']} heads of {sh['d_head']}, "
                 f"d {sh['d_model']}, context {ctx}, {'causal' if causal else 'bidirectional'}; every head at rank "
                 f"{r[0, 0]} ('raw'), widths {sorted(set(w.ravel().tolist()))}"),
            dict(model=name, what='parameters', original=p0, factored=p1),
            dict(model=name, what='file bytes (model.safetensors)', original=fb[0], factored=fb[1]),
            dict(model=name, what=f'query-key multiply-adds per token at L = {ctx}',
                 original=sv['score_madds'][0] * ctx, factored=sv['score_madds'][1] * ctx,
                 note=f"padded product computed: {pad * ctx:,}"),
            dict(model=name, what='key-cache bytes per token' + ('' if causal else ' (bidirectional: no cache in use)'),
                 original=sv['key_cache'][0] * bytes_per, factored=sv['key_cache'][1] * bytes_per)]
    for L in lengths:
        if L > ctx: rows.append(dict(model=name, what=f'forward latency, L = {L}', value=f'beyond the context {ctx}'))
        else:
            t = latency(dict(original=model, factored=g), L, model.config.vocab_size, repeats)
            rows.append(dict(model=name, what=f'forward latency, L = {L} (ms, median of {repeats})',
                             original=round(1e3 * t['original'], 3), factored=round(1e3 * t['factored'], 3)))
    rows.append(dict(model=name, what='sanity: parameter saving measured vs implied by the widths',
                     value=f"measured {p0 - p1:,}, implied {int(implied):,}: "
                           + ('equal' if p0 - p1 == implied else 'DIFFER')))
    x = torch.randint(0, model.config.vocab_size, (2, min(ctx, 64)), generator=torch.Generator().manual_seed(1))
    from entropic_bound.real.truncation import apply_head_ranks
    with torch.no_grad():
        y1 = apply_head_ranks(model, r, kind='raw', family=fam)(input_ids=x, use_cache=False)[0]
        y2 = g(input_ids=x, use_cache=False)[0]
    rows.append(dict(model=name, what='float32 |factored - truncated| (max over outputs)',
                     value=f"{(y2 - y1).abs().max().item():.1e} of max |output| {y1.abs().max().item():.1f}"))
    return rows


def table(rows: list) -> str:
    out = ['| model | measure | original | factored | saved |', '| --- | --- | ---: | ---: | ---: |']
    for r in rows:
        if 'value' in r: out.append(f"| {r['model']} | {r['what']} | {r['value']} | | |"); continue
        o, f = r['original'], r['factored']
        saved = f"{1 - f / o:.1%}" if o else ''
        note = f" ({r['note']})" if r.get('note') else ''
        out.append(f"| {r['model']} | {r['what']}{note} | {o:,} | {f:,} | {saved} |")
    return '\n'.join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--models', nargs='+', default=['byte-lm', 'minilm'], choices=['byte-lm', 'minilm'])
    ap.add_argument('--rank-share', type=float, default=.25, help='kept rank as a share of d_head (default 0.25)')
    ap.add_argument('--lengths', type=int, nargs='+', default=[64, 512])
    ap.add_argument('--repeats', type=int, default=21)
    ap.add_argument('--threads', type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    print(f"torch {torch.__version__}, {a.threads} thread(s), float32, batch 1")
    rows = []
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        for name in a.models:
            folder = str(byte_lm(d / 'byte-lm-export')) if name == 'byte-lm' else resolve_model('all-MiniLM-L6-v2')
            rows += bench(name, folder, a.rank_share, a.lengths, a.repeats, d)
    print(table(rows))
    print(json.dumps(rows))


if __name__ == '__main__':
    main()
