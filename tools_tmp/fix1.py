p='scratch_heads.py'; L=open(p).read().split('\n')
R = {
14: '''    "Whether the `real` extra is installed: transformers, and the packaged MiniLM (whose tokenizer the tests use)."''',
32: '''def resolve_model(model:str, # a local folder, a model id in the local HF cache, or 'all-MiniLM-L6-v2' (packaged)''',
35: '''    "A folder or cached id that `from_pretrained` opens offline; otherwise an error naming what to download."''',
50: '''        raise FileNotFoundError(f"model {model!r} is neither a local folder nor in the Hugging Face cache "
                                f"({HF_HUB_CACHE}); "''',
51: '''                                f"download it first (`hf download {model}` or `huggingface-cli download {model}`), "''',
58: '''    "(model, tokenizer, family): the base model in eval mode with eager attention, and its tokenizer."''',
60: '''    for k, v in (('HF_HUB_DISABLE_PROGRESS_BARS', '1'), ('TRANSFORMERS_VERBOSITY', 'error')):
        os.environ.setdefault(k, v)''',
64: '''    m = AutoModel.from_pretrained(path, local_files_only=offline, attn_implementation='eager', dtype=dtype)
    m = m.eval()''',
77: '''    "One layer's query/key maps in float64: Wq (H, dh, d), bq (H, dh), Wk (Hkv, dh, d), bk; scale, causal, rope."''',
90: '''    return dict(Wq=Wq.reshape(H, dh, -1), Wk=Wk.reshape(Hkv, dh, -1),
                bq=None if bq is None else bq.reshape(H, dh),''',
130: '''    n = torch.arange(1, L + 1, device=S.device, dtype=S.dtype)[:, None]           # visible keys per row
    return (S - S.sum(-1, keepdim=True) / n).masked_fill(~vis, 0.)''',
138: '''    "Symmetric square root of a batch of positive semi-definite matrices (negative round-off clipped)."''',
151: '''    "Squared singular values of A^½ B^½: eigenvalues of Rᵀ B R with A = R Rᵀ (`kernel_core` if A is singular)."''',
162: '''    "Share of a field's energy in its key-only rank-1 part 1 c̄ᵀ (c̄ the column mean; an orthogonal part)."''',
178: '''    "`draws` random (Wq, Wk) pairs like layer `layer`'s: iid N(0, 1/d), no biases, reproducible per (seed, layer)."''',
193: '''    "Energy 90% / 99% counts and stable rank from squared singular values (the rules of `energy_rank`, `stable_rank`)."'''[:0] + '''    "Energy 90% / 99% counts and stable rank from squared singular values (`energy_rank`'s, `stable_rank`'s rules)."''',
207: '''    "Ranks (and key-only share) of each head's energy field; bidirectional heads through the d_h × d_h core."''',
218: '''    if keyonly:
        cc = (cbar ** 2).sum((-2, -1) if cbar.ndim == 3 else -1)                    # ‖c̄‖² per head
        out['keyonly'] = q.shape[1] * cc / e.sum(-1).clamp_min(1e-300)''',
227: '''        n = 1 + len(randoms)
        self.mq, self.mk = [_Moments() for _ in range(n)], [_Moments() for _ in range(n)]''',
259: '''    if max_tokens is not None and (isinstance(max_tokens, bool) or not isinstance(max_tokens, int)
                                   or max_tokens < 2):''',
269: '''        if len(ids) > n:
            ids = tokenizer(t, truncation=True, max_length=n)['input_ids'] if isinstance(t, str) else ids[:n]''',
272: '''    if cut: warnings.warn(f"{cut} text(s) longer than the model's context ({context} tokens) were truncated")''',
312: '''    mods = attention_modules(model, family)
    return [m.register_forward_pre_hook(make(l), with_kwargs=True) for l, m in enumerate(mods)]''',
316: '''    "Run every text through the model with the hooks on; the model's outputs are kept only if `kw` asks for some."''',
336: '''    "Every head's kernel (raw and hidden-state metric) and energy field on `texts`, with a random Q/K control."''',
352: '''    tab = lambda i: {o: {s: torch.stack([p[i][o][s] for p in per]).tolist() for s in per[0][i][o]}
                     for o in per[0][i]}''',
377: '''TINY = {'bert': dict(model_type='bert', hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                     intermediate_size=64, max_position_embeddings=128),''',
378: None,
380: '''        'llama': dict(model_type='llama', hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                      num_key_value_heads=2, intermediate_size=64, max_position_embeddings=128)}''',
381: None,
387: '''    "A tiny randomly initialised model of `family`, built offline from a config (no download), eager attention."''',
397: '''OBJECTS = {'kernel_raw': 'kernel, raw coordinates', 'kernel_metric': 'kernel, hidden-state metric',
           'field': 'energy field on text'}''',
400: '''    "One row per head: layer, head, its key head, every reading, the random control's mean and sd over draws."''',
419: '''    "A one-screen summary: per layer, the median 90% count of each object, learned vs random (fractions of d_head)."''',
423: '''             f" ({res['n_kv_heads']} key heads), d_head {dh}, d_model {res['d_model']}, "
             f"{'causal' if res['causal'] else 'bidirectional'}",''',
424: '''             f"{len(L)} texts of {min(L)}–{max(L)} tokens; {res['draws']} random Q/K draws; "
             f"{res['seconds']:.1f} s",''',
425: '''             "90%-energy components / d_head, median over heads (random: median over heads, min–max of draws)",''',
439: '''    "Per layer, every head's 90% count (fraction of d_head): kernel in both metrics, field; random as bands."''',
446: '''        for l in range(nl):
            ax.scatter(l + jit, a[l], s=8, color='C0', label='learned heads' if l == 0 else None)''',
452: '''            ax.plot(range(nl), np.median(med, 0), color='C3', lw=1,
                    label=f'random Q/K, median over heads ({len(r)} draws)')''',
460: '''    "heads.csv, heads.json (per head, and the whole record), heads.png, summary.txt under `out`; their paths."''',
466: '''    paths = dict(csv=out / 'heads.csv', json=out / 'heads.json', figure=out / 'heads.png',
                 summary=out / 'summary.txt')''',
469: '''    rec = dict(meta, heads=df.to_dict('records'), learned=res['learned'], random=res['random'])
    paths['json'].write_text(json.dumps(rec))''',
476: '''    "Command line: eb-heads MODEL [--texts FILE] [--max-tokens N] [--out DIR] [--draws N] [--online]."''',
477: '''    p = argparse.ArgumentParser(prog='eb-heads', description='Kernel and energy-field ranks of every attention '
                                'head of a Hugging Face transformers model (BERT, GPT-2 or Llama family), offline.')''',
478: None,
479: '''    p.add_argument('model', help="a local folder, a model id in your Hugging Face cache, or all-MiniLM-L6-v2")''',
480: '''    p.add_argument('--texts', default=None,
                   help='text file, paragraphs separated by blank lines (default: the shipped prose)')''',
481: '''    p.add_argument('--max-tokens', type=int, default=None, help="tokens per text (default and cap: the context)")''',
494: '''        except ImportError as e: raise ValueError(f"eb-heads needs the [real] extra (transformers): {e}") from None'''[:0] + '''        except ImportError as e: raise ValueError(f"eb-heads needs the [real] extra: {e}") from None''',
495: '''        res = measure_model(model, tok, fam, texts, a.max_tokens, a.draws, a.seed, name=str(a.model))''',
}
for n in sorted(R, reverse=True):
    i = n - 1
    if R[n] is None: del L[i]
    else: L[i] = R[n]
open(p,'w').write('\n'.join(L))
