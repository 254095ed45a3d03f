#!/usr/bin/env python
"""Build and test the docs site offline.

build: nbdev's processed notebooks (`_proc/`, with `show_doc` API docs) rendered to `_docs/` by Sphinx + MyST-NB + sphinx-book-theme.
test:  headless Chromium opens the index and every notebook page and checks that math is typeset, figures load and API
       entries exist; screenshots go to `_docs/screenshots/`.
check-readme: README.md is what `index.ipynb` generates (nbdev_readme needs quarto, so we generate it here), and the
       index's Markdown outputs (the results table, the quickest result) are what the records give today: each such
       cell is run again here and its Markdown compared with the stored output and with README.md.
index: run the index's cells again and store the Markdown outputs they give today (then `readme`).
nbdev-docs: nbdev's own `nbdev_docs`, run on a copy of the checkout with a stand-in `quarto` on PATH
       (.ci/fakequarto: it records its arguments), must get through every step up to Quarto's render: `_proc/` holds every
       notebook, each exported function and class has its `show_doc` entry, the stand-in was asked to render the site,
       and the regenerated `nbs/sidebar.yml` is the committed one.
"""
import ast, json, os, re, shutil, subprocess, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NBS = ROOT / 'nbs'

def notebooks(root:Path=NBS) -> list:
    "Every notebook below `root` that nbdev reads (folders and files starting with '_' or '.' skipped), in path order."
    return sorted(p for p in root.rglob('*.ipynb') if not any(s.startswith(('_', '.')) for s in p.relative_to(root).parts))

def title(nb:Path) -> str:
    "The notebook's title: the first Markdown heading of level 1."
    for c in json.loads(nb.read_text())['cells']:
        if c['cell_type'] == 'markdown' and (m := re.search(r'^#\s+(.+)$', ''.join(c['source']), re.M)): return m.group(1)
    return ''

def site_sections() -> list:
    "(caption, pages) in the order a reader meets them: the stories, their appendices, beyond the paper, guides, library."
    pages = {p.relative_to(NBS).with_suffix('').as_posix(): title(p) for p in notebooks() if p.stem != 'index'}
    thm = {p: t for p, t in pages.items() if p.startswith('theorems/')}
    paper = {p: t for p, t in thm.items() if int(p.split('/')[1][:2]) < 50}    # 10–49: the paper's four theorems
    stories = [p for p, t in paper.items() if re.match(r'Theorem \d+\s*:', t)]
    appendices = [p for p, t in paper.items() if t.startswith('Appendix')]
    beyond = [p for p in thm if p not in stories and p not in appendices]
    guides = [p for p in pages if '/' not in p]
    library = [p for p in pages if p not in thm and p not in guides]
    return [('The four theorems', stories), ('Appendices', appendices), ('Beyond the paper', beyond),
            ('Guides', guides), ('Library reference', library)]

PAGES = ['index'] + [p for _, ps in site_sections() for p in ps]
THEOREM_PAGES = [p for p in PAGES if p.startswith('theorems/')]
STORY_PAGES = [p for p in THEOREM_PAGES if re.match(r'Theorem \d+\s*:', title(NBS / f'{p}.ipynb'))]  # 60 too
API = {'core/00_spectra': ['energy_rank', 'gavish_donoho_rank', 'energy_field', 'effective_ranks'], 'core/01_tasks': ['attentiontask'],
       'core/02_models': ['attentionhead'], 'core/03_train': ['fit'], 'theorems/40_frontier': ['frontier_claims'],
       'estimators/01_kernel_rank': ['recover_kernel_rank'], 'real/51_heads': ['measure_model', 'reproduction_error', 'visible_field'],
       'harness/90_cli': ['reproduce'], 'harness/06_claims': ['claim', 'check_claims'], 'harness/07_theorem': ['theorem'],
       'core/08_stats': ['fifty_point'], 'harness/91_report': ['paper_results']}
assert not (unknown := set(API) - set(PAGES)), f"API names pages that do not exist: {unknown}"

def readme_links(md:str) -> str:
    "Relative links of a page in nbs/ made relative to the checkout's root: `x` -> `nbs/x`, `../x` -> `x`."
    return re.sub(r'\]\((?!https?:|#|/|mailto:)(\.\./)?([^)\s]+)\)', lambda m: f"]({'' if m.group(1) else 'nbs/'}{m.group(2)})", md)

def readme_text() -> str:
    "README.md from nbs/index.ipynb: markdown as is (links made relative to the root), code fenced, stored outputs below it."
    nb = json.loads((ROOT / 'nbs' / 'index.ipynb').read_text())
    out = []
    for c in nb['cells']:
        src = ''.join(c['source'])
        if c['cell_type'] == 'markdown': out.append(readme_links(src))
        elif c['cell_type'] == 'code' and not src.lstrip().startswith(('#| hide', 'assert')):
            if not re.search(r'^#\|\s*echo:\s*false', src, re.M): out.append('``` python\n' + src + '\n```')
            for o in c.get('outputs', []):
                d = o.get('data', {})
                if 'text/markdown' in d: out.append(readme_links(''.join(d['text/markdown'])))
                elif 'text/plain' in d: out.append('    ' + ''.join(d['text/plain']).replace('\n', '\n    '))
                elif o.get('output_type') == 'stream': out.append('    ' + ''.join(o['text']).rstrip().replace('\n', '\n    '))
    return '\n\n'.join(out) + '\n'

def sphinxify(path:Path):
    "Adapt a notebook that nbdev processed for quarto to MyST-NB: title cell, display math, show_doc markup, hidden inputs."
    nb = json.loads(path.read_text())
    for c in nb['cells']:
        src = ''.join(c['source'])
        if c['cell_type'] == 'raw' and src.startswith('---'):          # quarto front matter -> a Markdown title
            import yaml
            fm = yaml.safe_load(src.strip().strip('-')) or {}
            c.update(cell_type='markdown', source=f"# {str(fm.get('title', '')).strip()}\n\n> {str(fm.get('description', '')).strip()}".rstrip('> \n'))
            c.pop('outputs', None); c.pop('execution_count', None)
        elif c['cell_type'] == 'markdown':                              # $$…$$ inside a paragraph -> its own block
            c['source'] = re.sub(r'\s*\$\$(.+?)\$\$\s*', lambda m: '\n\n$$' + m.group(1).strip() + '$$\n\n', src, flags=re.S).strip()
        elif c['cell_type'] == 'code':
            if re.search(r'^#\|\s*echo:\s*false', src, re.M): c.setdefault('metadata', {}).setdefault('tags', []).append('remove-input')
            for o in c.get('outputs', []):
                md = o.get('data', {}).get('text/markdown')
                if md: o['data']['text/markdown'] = re.sub(r'\{target="_blank"[^}]*\}', '', ''.join(md))
    path.write_text(json.dumps(nb))

def build():
    sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)
    for d in ('_proc', '_docs', '_nbs_exec'): shutil.rmtree(d, ignore_errors=True)
    # Every notebook is rendered as stored, nothing executed: theorem notebooks keep the outputs they were committed
    # with, library notebooks (stored without outputs) show their code, prose and API entries (show_doc is rendered by
    # nbdev's processing below, which executes only the import cells).
    work = ROOT / '_nbs_exec'
    shutil.copytree(ROOT / 'nbs', work)
    from nbdev.quarto import proc_nbs
    proc_nbs(str(work), n_workers=0)                              # show_doc cells rendered, hidden cells dropped
    proc = ROOT / '_proc'
    for nb in proc.rglob('*.ipynb'): sphinxify(nb)
    shutil.copytree(ROOT / 'nbs' / 'images', proc / 'images', dirs_exist_ok=True)
    idx = json.loads((proc / 'index.ipynb').read_text())          # the sidebar: a hidden toctree on the landing page
    idx['cells'] += [{'cell_type': 'markdown', 'metadata': {}, 'source': [f'```{{toctree}}\n:hidden:\n:maxdepth: 1\n'
                      f':caption: {cap}\n\n' + '\n'.join(ps) + '\n```']} for cap, ps in site_sections() if ps]
    (proc / 'index.ipynb').write_text(json.dumps(idx))
    subprocess.run([sys.executable, '-m', 'sphinx', '-b', 'html', '-q', '-c', str(ROOT / 'nbs' / '_sphinx'), str(proc), str(ROOT / '_docs')],
                   check=True)
    (ROOT / '_docs' / '.nojekyll').touch()
    shutil.rmtree(work, ignore_errors=True)
    print(f"built {ROOT / '_docs' / 'index.html'}")

TLDR_BEFORE_FIGURE = '''
const t = Array.from(document.querySelectorAll('table')).find(t => {
  let e = t; for (let i = 0; i < 6 && e; i++, e = e.previousElementSibling || e.parentElement)
    if (e.textContent.includes('TL;DR')) return true;
  return false; });
const img = document.querySelector('article img, main img, img');
return !!(t && img && (t.compareDocumentPosition(img) & Node.DOCUMENT_POSITION_FOLLOWING));'''

def dead_links(links:list, ids_of:dict) -> list:
    "Links of the site's pages whose target page does not exist, or whose anchor is not an id of that page."
    from urllib.parse import urlparse, unquote
    site, bad = (ROOT / '_docs').resolve(), []
    for page, href in links:
        u = urlparse(href)
        if u.scheme != 'file': continue                                   # the web: not followed offline
        target = Path(unquote(u.path)).resolve()
        if site not in target.parents: continue                            # the browser's own pages
        rel = target.relative_to(site).with_suffix('').as_posix()
        if not target.exists(): bad.append(f"{page}: dead link to {target.relative_to(site)}")
        elif u.fragment and rel in ids_of and unquote(u.fragment) not in ids_of[rel]:
            bad.append(f"{page}: link to {rel}#{u.fragment}: no such anchor on that page")
    return sorted(set(bad))

def test():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    for a in ('--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
              '--disable-component-update', '--disable-sync', '--window-size=1280,2000', f'--user-data-dir={ROOT / "_docs" / ".chrome"}'):
        opts.add_argument(a)
    opts.binary_location = shutil.which('chromium') or '/usr/bin/chromium'
    drv = webdriver.Chrome(service=Service(shutil.which('chromedriver') or '/usr/bin/chromedriver'), options=opts)
    shots = ROOT / '_docs' / 'screenshots'; shots.mkdir(exist_ok=True)
    failures, n, ids_of, links = [], 0, {}, []
    try:
        for page in PAGES:
            drv.get((ROOT / '_docs' / f'{page}.html').as_uri())
            t0 = time.time()
            while time.time() - t0 < 30:                           # MathJax typesets asynchronously
                if drv.execute_script("return document.readyState") == 'complete' and \
                   drv.execute_script("return !window.MathJax || !MathJax.startup || MathJax.startup.promise === undefined || document.querySelectorAll('mjx-container').length > 0"): break
                time.sleep(.5)
            time.sleep(1)
            math = drv.execute_script("return document.querySelectorAll('mjx-container').length")
            raw = drv.execute_script("return document.querySelectorAll('.math').length")
            imgs = drv.execute_script("return Array.from(document.images).map(i => [i.src, i.complete && i.naturalWidth > 0])")
            text = drv.execute_script("return document.body.innerText")
            ids = drv.execute_script("return Array.from(document.querySelectorAll('[id]')).map(e => e.id)")
            drv.save_screenshot(str(shots / f'{page}.png'))
            ids_of[page] = set(ids)
            links += [(page, h) for h in drv.execute_script("return Array.from(document.querySelectorAll('a[href]')).map(a => a.href)")]
            checks = [(f'{page}: page has a title', bool(drv.title))]
            if page in THEOREM_PAGES or page in ('index', 'core/00_spectra'):
                checks.append((f'{page}: math is typeset ({math} MathJax elements for {raw} math nodes)',
                               math >= raw and (math > 0 or page not in STORY_PAGES[:4] + ['index', 'core/00_spectra'])))
            if page in STORY_PAGES:
                checks.append((f'{page}: figures load ({len(imgs)} images)', len(imgs) >= 1 and all(ok for _, ok in imgs)))
                tldr = drv.execute_script(TLDR_BEFORE_FIGURE)
                checks.append((f'{page}: a TL;DR table stands before the first figure', tldr))
            else: checks.append((f'{page}: every image loads', all(ok for _, ok in imgs)))
            for name in API.get(page, []):
                checks.append((f'{page}: API entry {name}', any(i.lower().replace('-', '_') == name for i in ids) and name in text.lower()))
            for what, ok in checks:
                n += 1
                print(('ok  ' if ok else 'FAIL') + ' ' + what)
                if not ok: failures.append(what)
    finally: drv.quit()
    for what in dead_links(links, ids_of):
        n += 1; print('FAIL ' + what); failures.append(what)
    n += 1; print(f"ok   {len(links)} links followed")
    print(f"docs: {n - len(failures)} passed, {len(failures)} failed")
    if failures: sys.exit(1)

def _exported(nb:Path) -> list:
    "Public functions and classes a notebook exports (from its module's __all__): each needs a show_doc entry."
    import importlib, inspect
    src = ''.join(''.join(c['source']) for c in json.loads(nb.read_text())['cells'][:1])
    m = re.search(r'#\|\s*default_exp\s+(\S+)', src)
    if not m: return []
    mod = importlib.import_module(f"entropic_bound.{m.group(1)}")
    return [n for n in getattr(mod, '__all__', []) if (inspect.isfunction(o := getattr(mod, n)) or inspect.isclass(o))
            and getattr(o, '__module__', '') == mod.__name__]

def nbdev_docs_check():
    import tempfile
    work = Path(tempfile.mkdtemp()) / 'repo'
    shutil.copytree(ROOT, work, ignore=shutil.ignore_patterns('.git', '.venv', '_docs', '_proc', '_nbs_exec', '.jt',
                                                              'results', '*.egg-info', '__pycache__'))
    log = work.parent / 'quarto-calls.log'
    env = {**os.environ, 'PATH': f"{ROOT / '.ci' / 'fakequarto'}{os.pathsep}{os.environ['PATH']}",
           'QUARTO_LOG': str(log), 'PYTHONPATH': str(work)}
    exe = Path(sys.executable).parent / 'nbdev_docs'                   # the environment's own command
    r = subprocess.run([str(exe) if exe.exists() else 'nbdev_docs'], cwd=work, env=env, capture_output=True, text=True)
    failures, n = [], 0
    def check(what, ok):
        nonlocal n; n += 1
        print(('ok  ' if ok else 'FAIL') + ' ' + what)
        if not ok: failures.append(what)
    check(f"nbdev_docs exits 0 (got {r.returncode}){': ' + r.stderr[-2000:] if r.returncode else ''}", r.returncode == 0)
    calls = log.read_text().splitlines() if log.exists() else []
    check(f"the stand-in quarto was asked to render the site ({len(calls)} calls: "
          f"{'; '.join(c.split(' :: ')[1] for c in calls)})", any(c.endswith(':: render --no-cache') for c in calls))
    proc = work / '_proc'
    for nb in notebooks():
        rel = nb.relative_to(NBS).as_posix()
        p = proc / rel
        check(f"_proc holds {rel}", p.exists())
        if not p.exists(): continue
        text = ' '.join(''.join(o.get('data', {}).get('text/markdown', '')) for c in json.loads(p.read_text())['cells']
                        for o in c.get('outputs', []))
        missing = [f for f in _exported(nb) if not re.search(rf'#+ \*?\*?{re.escape(f)}\b', text)]
        check(f"{rel}: every exported function and class has its show_doc entry"
              + (f" (missing: {missing})" if missing else ''), not missing)
    same = (work / 'nbs' / 'sidebar.yml').read_text() == (ROOT / 'nbs' / 'sidebar.yml').read_text()
    check("nbdev_docs regenerates nbs/sidebar.yml as committed", same)
    print(f"nbdev_docs: {n - len(failures)} passed, {len(failures)} failed")
    if failures: sys.exit(1)

def index_outputs() -> list:
    "(cell, stored Markdown, Markdown today) of each index cell that shows Markdown: every code cell run again."
    nb, ns, out = json.loads((NBS / 'index.ipynb').read_text()), {}, []
    sys.path.insert(0, str(ROOT))                                   # the package of this checkout, and its records
    for i, c in enumerate(nb['cells']):
        if c['cell_type'] != 'code': continue
        tree = ast.parse(''.join(c['source']))
        md = [''.join(o['data']['text/markdown']) for o in c.get('outputs', []) if 'text/markdown' in o.get('data', {})]
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, f'index.ipynb cell {i}', 'exec'), ns)
        if last is None: continue
        value = eval(compile(ast.Expression(last.value), f'index.ipynb cell {i}', 'eval'), ns)
        if hasattr(value, '_repr_markdown_') or md:                 # a cell that shows Markdown, or stored some
            out.append((i, md[0] if md else None, getattr(value, '_repr_markdown_', lambda: repr(value))()))
    return out

def store_index_outputs():
    "Store in nbs/index.ipynb the Markdown outputs its cells give today (what `check-readme` compares)."
    path = NBS / 'index.ipynb'
    outs = index_outputs(); nb = json.loads(path.read_text())
    for i, _, md in outs:
        lines = md.splitlines(keepends=True)
        nb['cells'][i]['outputs'] = [{'data': {'text/markdown': lines, 'text/plain': lines}, 'execution_count': None,
                                      'metadata': {}, 'output_type': 'execute_result'}]
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + '\n')
    print(f"stored the Markdown of {len(outs)} cells of {path.relative_to(ROOT)}; now: python .ci/docs.py readme")

def check_readme():
    readme = (ROOT / 'README.md').read_text()
    for i, stored, today in index_outputs():                       # the records' numbers, as the records give them
        if stored == today and readme_links(today) in readme: continue
        if stored != today: where, have, now = 'the stored output of nbs/index.ipynb', (stored or '').splitlines(), today
        else: where, have, now = 'README.md', readme.splitlines(), readme_links(today)
        want = [l for l in now.splitlines() if l.strip() and l not in have]
        print(f"{where} differs from what results/*/claims.json give today (index cell {i}); the records give:\n"
              + '\n'.join('  ' + (l if len(l) < 300 else '… ' + l[-240:]) for l in want[:8]) + "\nrun `python .ci/docs.py index`, then "
              "`python .ci/docs.py readme`, and commit both"); sys.exit(1)
    want, have = readme_text(), readme
    if want != have:
        print("README.md is not what nbs/index.ipynb generates: run `python .ci/docs.py readme` and commit it"); sys.exit(1)
    print("README.md is current")

if __name__ == '__main__':
    cmd = sys.argv[1] if len(sys.argv) > 1 else 'build'
    if cmd == 'readme': (ROOT / 'README.md').write_text(readme_text()); print('wrote README.md')
    elif cmd == 'index': store_index_outputs()
    elif cmd == 'check-readme': check_readme()
    elif cmd == 'nbdev-docs': nbdev_docs_check()
    elif cmd == 'build': build()
    elif cmd == 'test': test()
    else: sys.exit(f"usage: {sys.argv[0]} build|test|readme|check-readme|index|nbdev-docs")
