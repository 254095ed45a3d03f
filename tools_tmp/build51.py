import json, nbformat, re
src = open('/work/wt/realheads/scratch_heads.py').read()
B = [b.strip('\n') for b in src.split('#| export\n') if b.strip()]
def code(s): return nbformat.v4.new_code_cell(s)
def md(s): return nbformat.v4.new_markdown_cell(s)
def ex(i): return code('#| export\n' + B[i])
cells = [
code('#| default_exp heads'),
md("# Heads of any transformer\n\n> The attention-native estimators on every head of a Hugging Face model: BERT, GPT-2 and Llama families, offline."),
md(r"""`50_real_heads` reads one BERT encoder. This module reads any `transformers` model of the three attention families that
cover most checkpoints, from a local folder or the user's Hugging Face cache, without touching the network:

| family | model types | what differs |
|---|---|---|
| BERT | `bert`, `roberta` | `query`/`key` linear maps with biases, bidirectional |
| GPT-2 | `gpt2` | one fused `c_attn` Conv1D (`y = x W + b`, columns `[q | k | v]`), causal mask |
| Llama | `llama`, `mistral`, `qwen2` | `q_proj`/`k_proj` (biases only in Qwen2), RoPE, grouped-query attention, RMSNorm |

For every head it measures the learned kernel $W_Q^hW_K^{h\top}$ in two metrics and the energy field of the head's real
logits on given texts, each against a random $Q/K$ control, and it checks that its logits reproduce the model's own
attention probabilities. `eb-heads MODEL` (at the end) does all of it from the command line.

Everything reads the hidden states that enter each attention module through a forward pre-hook, layer by layer: a hook
turns its layer's input into small per-head statistics and lets it go, so memory is one layer's activations, not the
whole model's hidden states. `transformers` is imported only inside functions: the module imports without the `[real]`
extra."""),
code('''#| hide
from entropic_bound.heads import available
if not available():
    print("SKIPPED 51_heads: the [real] extra is not installed (pip install -e '.[real]'); no cell below runs.")
    get_ipython().input_transformers_cleanup.append(lambda lines: [])   # every later cell becomes empty'''),
code('#| hide\nfrom nbdev.showdoc import *\nfrom fastcore.test import *'),
ex(0),
code("import time, warnings, tempfile, json\nimport numpy as np, pandas as pd\ntorch.set_num_threads(1)"),
md("## Families, models and the context"),
ex(1),
code('''from transformers import AutoConfig
test_eq(family_of(AutoConfig.for_model('gpt2')), 'gpt2')
test_eq(family_of(AutoConfig.for_model('qwen2')), 'llama')
test_fail(lambda: family_of(AutoConfig.for_model('t5')), contains='the families read are bert')   # names what is supported
test_eq(context_length(AutoConfig.for_model('roberta', max_position_embeddings=514)), 512)
test_eq(context_length(AutoConfig.for_model('mistral', max_position_embeddings=4096, sliding_window=1024)), 1024)
test_fail(lambda: resolve_model('no-such-org/no-such-model'), contains='download it first')      # offline: names the download
test_fail(lambda: resolve_model(None), contains='model must be')'''),
md(r"""## Queries and keys of one layer

Per layer the query and key maps become $W_Q\in\mathbb R^{H\times d_h\times d}$, $W_K\in\mathbb R^{H_{kv}\times d_h\times d}$
(GPT-2's Conv1D stores $W^\top$, sliced into its query and key thirds) with their biases, the model's logit scale, whether the
mask is causal and whether RoPE applies."""),
ex(2),
md(r"""## Logits and the energy field under a mask

**Causal rows.** Row $i$ of a causal head sees the keys $V_i=\{j\le i\}$: $P_{ij}=e^{S_{ij}}/\sum_{j'\in V_i}e^{S_{ij'}}$ for
$j\in V_i$ and $P_{ij}=0$ otherwise. Adding $c_i$ to $S_{ij}$ for every $j\in V_i$ multiplies numerator and denominator by
$e^{c_i}$, so $P$ is unchanged; and the logits at $j\notin V_i$ never enter $P$ at all. So what $P$ determines is, per row,
$S$ on the visible keys up to one constant: the energy field is
$$\tilde E_{ij}=S_{ij}-\tfrac1{|V_i|}\textstyle\sum_{j'\in V_i}S_{ij'}\quad(j\le i),\qquad \tilde E_{ij}=0\quad(j>i),$$
and $\tilde E_{ij}=\log P_{ij}-\frac1{|V_i|}\sum_{j'\in V_i}\log P_{ij'}$ on $V_i$. Centring over all $L$ keys (the
bidirectional $S(I-\mathbf 1\mathbf 1^\top/L)$) would mix in logits of future keys that the attention never uses.

**RoPE.** Llama rotates query $i$ and key $j$ by position: $S_{ij}=(R_iq_i)^\top(R_jk_j)=q_i^\top R_{j-i}k_j$, with $R_\delta$
orthogonal, block-diagonal rotations of the coordinate pairs $(m, m+d_h/2)$ by the angles $\delta\theta_m$. The bilinear form
between tokens at offset $\delta$ is therefore $W_Q^\top R_\delta W_K$: one kernel per offset. At offset 0, $R_0=I$ and it is
$W_Q^\top W_K$, the kernel we report. Other offsets rotate the head's coordinates between the query and key sides; that keeps
the rank $\le d_h$ but changes the singular values, so no single kernel describes a RoPE head. The field is computed from
the real rotated logits.

**Grouped-query attention.** With $H$ query heads and $H_{kv}$ key heads, head $h$ reads key head $\lfloor h/(H/H_{kv})\rfloor$
(transformers' `repeat_kv`); heads that share keys are still measured one by one, each with its own kernel and field."""),
ex(3),
code('''g = torch.Generator().manual_seed(0)
S = torch.randn(3, 7, 7, generator=g, dtype=torch.float64)
M = causal_mask(7)
E = visible_field(S, causal=True)
test_close(torch.softmax(E + M, -1), torch.softmax(S + M, -1), eps=1e-12)              # P is unchanged: E keeps what P sees
P = torch.softmax(S + M, -1)
test_close(visible_field(torch.log(P.clamp_min(1e-300)).masked_fill(M < 0, 0.), True), E, eps=1e-10)   # E = centred log P
test_close(E.sum(-1), torch.zeros(3, 7), eps=1e-12)                                      # each row centred over what it sees
test_eq(E.masked_select(M < 0).abs().max().item(), 0.)                                   # unseen keys carry nothing
test_close(visible_field(S, causal=False), energy_field(S))                             # bidirectional: the usual field
S2 = S + torch.randn(3, 7, 7, generator=g, dtype=torch.float64).masked_fill(M == 0, 0.)    # change only logits of unseen keys
test_close(torch.softmax(S2 + M, -1), P, eps=1e-12); test_close(visible_field(S2, True), E, eps=1e-12)   # same P, same field
assert (energy_field(S2) - energy_field(S)).abs().max() > .1                             # all-keys centring reads unseen logits
x = torch.randn(5, 8, generator=g, dtype=torch.float64)
cos, sin = torch.cos(torch.arange(5.)[:, None] * torch.ones(8)).double(), torch.sin(torch.arange(5.)[:, None] * torch.ones(8)).double()
test_close(rotate(x, cos, sin).norm(dim=-1), x.norm(dim=-1))                             # a rotation keeps lengths'''),
md(r"""## Kernels in two metrics, through a $d_h\times d_h$ core

The kernel $W=W_Q^\top W_K$ is $d\times d$, but its singular values are those of a $d_h\times d_h$ matrix. In a metric $\Sigma$
(raw coordinates: $\Sigma=I$; the hidden-state metric: $\Sigma=\Sigma_c$, the centred covariance of the hidden states that
enter the layer on the same texts), put $A=W_Q\Sigma^{1/2}$ and $B=W_K\Sigma^{1/2}$ ($d_h\times d$). Polar decomposition gives
$A=C_q^{1/2}U_A$ with $C_q=AA^\top=W_Q\Sigma W_Q^\top$ and $U_A$ a partial isometry, likewise $B=C_k^{1/2}U_B$, so
$$\Sigma^{1/2}W_Q^\top W_K\Sigma^{1/2}=A^\top B=U_A^\top\,C_q^{1/2}C_k^{1/2}\,U_B\quad\Rightarrow\quad
\sigma\big(\Sigma^{1/2}W\Sigma^{1/2}\big)=\sigma\big(C_q^{1/2}C_k^{1/2}\big).$$
In the hidden-state metric $C_q=W_Q\Sigma_cW_Q^\top$ is just the covariance of the head's (bias-free) queries over the
tokens, and $C_k$ that of its keys: running sums of $d_h\times d_h$ per head, accumulated layer by layer, never a $d\times d$
covariance. The same identity reads a bidirectional field: $\tilde E=QK^\top(I-\mathbf 1\mathbf 1^\top/L)=QK_c^\top$ (queries
with their bias, keys centred), so its spectrum is that of $(Q^\top Q)^{1/2}(K_c^\top K_c)^{1/2}$ and its rank is at most $d_h$."""),
ex(4), ex(5),
code('''g = torch.Generator().manual_seed(1)
Wq, Wk = torch.randn(2, 6, 20, generator=g, dtype=torch.float64)           # d_h = 6, d = 20
X = torch.randn(200, 20, generator=g, dtype=torch.float64) @ torch.randn(20, 20, generator=g, dtype=torch.float64)
Sc = torch.cov(X.T, correction=0)
R = psd_sqrt(Sc)
test_close(psd_sqrt(Sc) @ psd_sqrt(Sc), Sc, eps=1e-8)
for Sig in (torch.eye(20, dtype=torch.float64), Sc):
    full = torch.linalg.svdvals(psd_sqrt(Sig) @ Wq.T @ Wk @ psd_sqrt(Sig))[:6]
    test_close(torch.linalg.svdvals(kernel_core(Wq @ Sig @ Wq.T, Wk @ Sig @ Wk.T)), full, eps=1e-8 * full[0])
mq = _Moments(); mq.add((X @ Wq.T)[None, :120]); mq.add((X @ Wq.T)[None, 120:])      # streamed in two pieces
test_close(mq.cov()[0], Wq @ Sc @ Wq.T, eps=1e-8)                                    # = W_Q Σ_c W_Qᵀ'''),
md(r"""## Ranks of every head, text by text

`spectrum_ranks` applies the rules of `energy_rank` and `stable_rank` to squared singular values computed once. A head's
field is read per text (never stacked across texts, THEORY §4) and summarised by the median over texts; its **key-only
share** is the fraction of its energy in the rank-1 part $\mathbf 1\bar c^\top$ ($\bar c$ the column mean, the part that is
the same for every query; $(\mathbf 1\mathbf 1^\top/L)\tilde E$ is an orthogonal projection, so the share lies in $[0,1]$).

**Biases.** $S_{ij}=(W_Qx_i+b_Q)^\top(W_Kx_j+b_K)=x_i^\top W_Q^\top W_Kx_j+b_Q^\top W_Kx_j+x_i^\top W_Q^\top b_K+b_Q^\top b_K$.
Row-centring removes what is constant along a row, i.e. the two terms with the **key** bias $b_K$. The **query**-bias term
$b_Q^\top W_Kx_j$ depends on the key: it survives, as part of the key-only term $\bar q^\top k_j$ that every query shares.

The random control draws $W_Q,W_K$ with iid $\mathcal N(0,1/d)$ entries in each layer's shapes (GQA sharing included), no
biases, and applies them to the same hidden states with the same RoPE and mask; ranks do not depend on the scale. It is
drawn `draws` times (3 by default) so that its spread shows."""),
ex(6),
code('''from entropic_bound.spectra import energy_rank, stable_rank
g = torch.Generator().manual_seed(2)
M = torch.randn(4, 9, 12, generator=g, dtype=torch.float64) * torch.logspace(0, -2, 12, dtype=torch.float64)
r = spectrum_ranks(torch.linalg.svdvals(M) ** 2)
test_eq(r['e90'].tolist(), energy_rank(M, .9).tolist()); test_eq(r['e99'].tolist(), energy_rank(M, .99).tolist())
test_close(r['stable'], stable_rank(M))
q, k = torch.randn(2, 3, 40, 5, generator=g, dtype=torch.float64)                          # L = 40 > d_h = 5: the core path
E = visible_field(q @ k.mT)
for causal in (False, True):
    E = visible_field(q @ k.mT, causal)
    fr = field_ranks(q, k, causal)
    test_eq(fr['e90'].tolist(), energy_rank(E, .9).tolist()); test_close(fr['stable'], stable_rank(E))
    test_close(fr['keyonly'], key_only_share(E))
    test_close(key_only_share(E), (E.mean(-2, keepdim=True).expand_as(E) ** 2).sum((-2, -1)) / (E ** 2).sum((-2, -1)))
A, Bm = q[0].mT @ q[0], k[0].mT @ k[0]
test_close(core_energies(A, Bm), torch.linalg.svdvals(kernel_core(A, Bm)) ** 2, eps=1e-9 * torch.linalg.matrix_norm(A @ Bm, 2).item())
A1 = A.clone(); A1[:, 0] = A1[0, :] = 0                                                  # singular: the kernel_core route
test_close(core_energies(A1, Bm), torch.linalg.svdvals(kernel_core(A1, Bm)) ** 2, eps=1e-9 * torch.linalg.matrix_norm(A @ Bm, 2).item())
bq = torch.randn(5, generator=g, dtype=torch.float64)
kc = k - k.mean(1, keepdim=True)
test_close(visible_field((q + bq) @ (k + 7.).mT), (q + bq) @ kc.mT)                      # the key bias is gone, the query bias stays'''),
md("## Texts, truncation, and the hooks"),
ex(7),
code('''from entropic_bound.heads import tiny_model
tok = load_model('all-MiniLM-L6-v2')[1]                                                  # the packaged tokenizer
test_fail(lambda: encode(tok, []), contains='texts is empty')
test_fail(lambda: encode(tok, ['fine', '  ']), contains='empty text')
test_fail(lambda: encode(tok, 'one string'), contains='list of strings')
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    ids = encode(tok, [prose()], context=128)
test_eq(ids[0].shape, (1, 128)); test_eq(ids[0][0, -1].item(), tok.sep_token_id)        # truncated, [SEP] kept
assert any('truncated' in str(x.message) for x in w)                                       # ...with a warning
test_eq([len(x) for x in windows(tok, prose(), 64, 3)], [64, 64, 64])
test_fail(lambda: read_texts('/no/such/file'), contains='does not exist')'''),
ex(8),
md(r"""## The reproduction check, every family

Our logits, softmaxed with the model's mask, must give the attention probabilities the model itself returns
(`output_attentions=True`, eager attention), in float64, on real text. Tiny randomly initialised models (`tiny_model`) stand in
for GPT-2 and Llama checkpoints: transformers builds them from a config without any download; the Llama one has grouped-query
attention (4 query heads on 2 key heads) and RoPE. They use the packaged MiniLM tokenizer's vocabulary so that they read the
same real text. Llama's eager attention computes its softmax in float32 (transformers' code, whatever the model's dtype), so
its reference carries float32 round-off, about $10^{-7}$; BERT and GPT-2 agree to float64 round-off."""),
ex(9),
code('''texts = [prose()[:500], "Attention is all you need, and a causal mask is all a decoder sees."]
errs = {f: reproduction_error(tiny_model(f), tok, f, texts) for f in TINY}
enc64, _, fam = load_model('all-MiniLM-L6-v2', dtype=torch.float64)
errs['all-MiniLM-L6-v2 (real weights)'] = reproduction_error(enc64, tok, fam, texts)
print('\\n'.join(f"{k:>32}: max |P_ours - P_model| = {v:.1e}" for k, v in errs.items()))
assert all(v <= 1e-5 for v in errs.values())                                          # the issue's tolerance
assert max(errs['bert'], errs['gpt2'], errs['all-MiniLM-L6-v2 (real weights)']) < 1e-12   # float64 end to end
test_eq((tiny_model('llama').config.num_attention_heads, tiny_model('llama').config.num_key_value_heads), (4, 2))'''),
md("## Outputs: table, summary, figure, command"),
ex(10),
ex(11),
code('''res = measure_model(tiny_model('llama'), tok, 'llama', texts, draws=3)
df = heads_table(res)
test_eq(len(df), 2 * 4); test_eq(df.kv_head.tolist(), [0, 0, 1, 1] * 2)                   # GQA: heads 0, 1 share key head 0
assert {'kernel_raw_e90', 'kernel_metric_e90', 'field_e90', 'field_keyonly', 'random_field_e90', 'random_field_e90_sd'} <= set(df.columns)
assert (df.kernel_raw_e90 <= res['d_head']).all()
print(summary(res))'''),
md("""`eb-heads` on a checkpoint folder: here a tiny GPT-2 saved with the packaged tokenizer, as a user's own checkpoint would be.
The command writes `heads.csv`, `heads.json`, `heads.png` and `summary.txt`, and prints the summary.

```sh
eb-heads all-MiniLM-L6-v2                          # the packaged encoder, on the shipped prose
eb-heads gpt2 --out heads-gpt2                     # from your Hugging Face cache (hf download gpt2 first)
eb-heads ./my-llama --texts my_texts.txt --max-tokens 256 --draws 5
```
Texts files hold paragraphs separated by blank lines. Nothing is downloaded unless `--online` is given; a model that is
neither a folder nor in the cache gets an error naming what to download."""),
code('''with tempfile.TemporaryDirectory() as d:
    tiny_model('gpt2', dtype=torch.float32).save_pretrained(f'{d}/ckpt'); tok.save_pretrained(f'{d}/ckpt')
    (Path(d) / 'texts.txt').write_text(texts[0] + '\\n\\n' + texts[1] + '\\n')
    test_eq(main([f'{d}/ckpt', '--texts', f'{d}/texts.txt', '--out', f'{d}/out', '--draws', '3']), 0)
    out = pd.read_csv(f'{d}/out/heads.csv')
    test_eq(len(out), 2 * 4); test_eq(out[['layer', 'head']].values.tolist(), [[l, h] for l in range(2) for h in range(4)])
    js = json.loads((Path(d) / 'out' / 'heads.json').read_text())
    test_eq((js['family'], js['draws'], len(js['heads']), js['causal']), ('gpt2', 3, 8, True))
    test_close(out.field_e90.values, np.array(js['learned']['field']['e90']).ravel())
    assert (Path(d) / 'out' / 'heads.png').stat().st_size > 10_000
    (Path(d) / 'empty.txt').write_text('\\n \\n')
    test_eq(main([f'{d}/ckpt', '--texts', f'{d}/empty.txt', '--out', f'{d}/out']), 2)     # empty text file: an error
    test_eq(main(['no-such-org/no-such-model', '--out', f'{d}/out']), 2)                  # absent model: an error
    AutoConfig.for_model('t5', d_model=16, num_layers=1, num_heads=2, d_ff=16, d_kv=8).save_pretrained(f'{d}/t5')
    test_fail(lambda: load_model(f'{d}/t5'), contains='the families read are')'''),
md("""On all-MiniLM-L6-v2 and its 32 shipped sentences (`real_heads.CORPUS`), the whole measurement (72 heads, kernels in
both metrics, fields, three random draws) runs in a few seconds on one thread; `50_real_heads` prints its time."""),
code('#| hide\nimport nbdev; nbdev.nbdev_export()'),
]
nb = nbformat.v4.new_notebook(); nb.cells = cells
nb.metadata = {'kernelspec': {'display_name': 'python3', 'language': 'python', 'name': 'python3'}}
nbformat.write(nb, '/work/wt/realheads/nbs/51_heads.ipynb')
