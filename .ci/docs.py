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

# The sidebar's names for pages whose own title would read as content or as a theorem the paper does not state.
NAV_TITLES = {'theorems/60_task_rank': 'A language task: the query–key rank it needs',
              'harness/04_experiment': 'Experiments, scales and the results cache',
              'harness/05_executors': 'Executors: where runs run', 'harness/06_claims': 'Claims as data',
              'harness/07_theorem': "A theorem's table of sweeps", 'harness/90_cli': 'The eb-reproduce command',
              'harness/91_report': 'Writing the report', 'harness/92_tldr': "Writing a story's TL;DR",
              'harness/93_front': "Writing the front page's table"}
LIBRARY = [('Library: estimators', 'estimators/'), ('Library: core', 'core/'), ('Library: real heads', 'real/'),
           ('Library: language models', 'lm/'), ('Library: harness', 'harness/')]
PROJECT = [('project/results/paper/report', 'The paper-scale report'), ('project/BENCHMARKS', 'Benchmarks'),
           ('project/CHANGELOG', 'Changelog')]

def site_sections() -> list:
    "(caption, pages) in the order a reader meets them: the stories, beyond the paper, guides, the library by part."
    pages = {p.relative_to(NBS).with_suffix('').as_posix(): title(p) for p in notebooks() if p.stem != 'index'}
    thm = {p: t for p, t in pages.items() if p.startswith('theorems/')}
    paper = {p: t for p, t in thm.items() if int(p.split('/')[1][:2]) < 50}    # 10–49: the paper's four theorems
    stories = [p for p, t in paper.items() if re.match(r'Theorem \d+\s*:', t)]
    beyond = [p for p in thm if p not in paper]
    guides = [p for p in pages if '/' not in p]
    return ([('The four theorems', list(paper)), ('Beyond the paper', beyond), ('Guides', guides)] +
            [(cap, [p for p in pages if p.startswith(pre)]) for cap, pre in LIBRARY])

def appendix_of(page:str, pages) -> str:
    "The story a theorem appendix belongs to: the page numbered at the start of its ten (41 -> 40), or ''."
    if not page.startswith('theorems/') or not title(NBS / f'{page}.ipynb').startswith('Appendix'): return ''
    ten = page.split('/')[1][0]
    heads = [p for p in pages if p != page and p.startswith(f'theorems/{ten}0_')]
    return heads[0] if heads else ''

def nav() -> list:
    "(caption, [(page, sidebar title or None, [appendix pages])]): the sidebar, appendices nested under their story."
    thm = [p.relative_to(NBS).with_suffix('').as_posix() for p in NBS.joinpath('theorems').glob('*.ipynb')]
    out = []
    for cap, ps in site_sections():
        kids = {p: [a for a in ps if appendix_of(a, thm) == p] for p in ps}
        nested = {a for v in kids.values() for a in v}
        out.append((cap, [(p, NAV_TITLES.get(p), kids[p]) for p in ps if p not in nested]))
    return out

PAGES = ['index'] + [p for _, ps in site_sections() for p in ps] + [p for p, _ in PROJECT]
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

def _settings() -> dict:
    from configparser import ConfigParser
    cfg = ConfigParser(delimiters=['=']); cfg.read(ROOT / 'settings.ini', encoding='utf-8')
    return dict(cfg['DEFAULT'])

GIT_URL = _settings()['git_url'].rstrip('/')
DOC_PREFIX = _settings()['doc_host'].rstrip('/') + '/' + _settings()['doc_baseurl'].strip('/') + '/'
# Files outside nbs/ that pages link to, published with the site under project/ (rendered by MyST, their images along);
# a link to any other file outside nbs/ goes to its copy in the repository.
PUBLISHED = {'BENCHMARKS.md': [], 'CHANGELOG.md': [], 'results/paper/report.md': ['results/paper/figures']}
_LINK = re.compile(r'\]\((?!https?:|mailto:|#|/)([^)\s#]+)(#[^)\s]*)?\)')
# nbdev links a backticked name inside a link the author already wrote: [[`fit_lm`](https://…/fit.html#fit_lm)](../lm/02_fit.ipynb)
_NESTED = re.compile(r'\[\[(`[^`\]]+`)\]\(' + re.escape(DOC_PREFIX) + r'[^)\s]*\)\]\(')

_DOCLINK = re.compile(r'\[(`[^`\]]+`)\]\(' + re.escape(DOC_PREFIX) + r'[^)\s]*\)')

def site_links(md:str, rel:str) -> str:
    "Links of the page `rel` (relative to nbs/) in Markdown `md`: nested doc links unwrapped, files outside nbs/ published or linked."
    md = _NESTED.sub(r'[\1](', md)
    md = re.sub(r'```.*?```', lambda m: _DOCLINK.sub(r'\1', m.group(0)), md, flags=re.S)   # code shows the name, not a link
    here = (Path('nbs') / rel).parent
    def fix(m):
        target = os.path.normpath(here / m.group(1))
        if target == 'nbs' or target.startswith('nbs' + os.sep) or target.startswith('..'): return m.group(0)
        target = Path(target).as_posix()
        if target in PUBLISHED: new = os.path.relpath(Path('nbs') / 'project' / target, here)
        else: new = f"{GIT_URL}/blob/main/{target}"
        return f"]({Path(new).as_posix()}{m.group(2) or ''})"
    return _LINK.sub(fix, md)

def docstring_stars(md:str) -> str:
    """show_doc sets a docstring in italics (`*…*`): a star inside it (`r*`, `W*`) would close them early. Escaped here,
    outside code and maths. The library writes its stars as `∗` (`docs.py descriptions`); a claim-maker's first line is
    its TL;DR statement, kept as published, and this keeps it whole on its show_doc entry."""
    def esc(m):
        parts = re.split(r'(`[^`]*`|\$[^$]*\$)', m.group(2))
        return m.group(1) + ''.join(p if i % 2 else re.sub(r'(?<!\\)\*', r'\\*', p) for i, p in enumerate(parts)) + m.group(3)
    return re.sub(r'^(\*)([^*\n].*?[^*\n])(\*)$', esc, md, flags=re.M)

def sphinxify(path:Path, rel:str=''):
    "Adapt a notebook that nbdev processed for quarto to MyST-NB: title cell, display math, show_doc markup, hidden inputs, links."
    nb = json.loads(path.read_text())
    for c in nb['cells']:
        if c['cell_type'] == 'markdown': c['source'] = site_links(''.join(c['source']), rel)
        for o in c.get('outputs', []):
            if 'text/markdown' in o.get('data', {}): o['data']['text/markdown'] = site_links(''.join(o['data']['text/markdown']), rel)
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
                if md: o['data']['text/markdown'] = docstring_stars(re.sub(r'\{target="_blank"[^}]*\}', '', ''.join(md)))
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
    for nb in proc.rglob('*.ipynb'): sphinxify(nb, nb.relative_to(proc).as_posix())
    shutil.copytree(ROOT / 'nbs' / 'images', proc / 'images', dirs_exist_ok=True)
    for f, extra in PUBLISHED.items():                            # files outside nbs/ that pages link to
        (proc / 'project' / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / f, proc / 'project' / f)
        for d in extra: shutil.copytree(ROOT / d, proc / 'project' / d, dirs_exist_ok=True)
    idx = json.loads((proc / 'index.ipynb').read_text())          # the sidebar: a hidden toctree on the landing page
    entry = lambda p, t: f'{t} <{p}>' if t else p
    toc = lambda cap, entries, depth=2: {'cell_type': 'markdown', 'metadata': {}, 'source': [
        f'```{{toctree}}\n:hidden:\n:maxdepth: {depth}\n' + (f':caption: {cap}\n' if cap else '') + '\n' + '\n'.join(entries) + '\n```']}
    idx['cells'] += [toc(cap, [entry(p, t) for p, t, _ in ps]) for cap, ps in nav() if ps]
    idx['cells'].append(toc('Project records', [entry(p, t) for p, t in PROJECT]))
    (proc / 'index.ipynb').write_text(json.dumps(idx))
    for cap, ps in nav():                                          # each story's appendices nested under it
        for p, _, kids in ps:
            if not kids: continue
            nb = json.loads((proc / f'{p}.ipynb').read_text())
            nb['cells'].append(toc('', [f"/{k}" for k in kids], 1))
            (proc / f'{p}.ipynb').write_text(json.dumps(nb))
    subprocess.run([sys.executable, '-m', 'sphinx', '-b', 'html', '-q', '-c', str(ROOT / 'nbs' / '_sphinx'), str(proc), str(ROOT / '_docs')],
                   check=True)
    member_links(ROOT / '_docs')
    (ROOT / '_docs' / '.nojekyll').touch()
    shutil.rmtree(work, ignore_errors=True)
    print(f"built {ROOT / '_docs' / 'index.html'}")

def member_links(site:Path):
    """nbdev links a method or a private name (`Claim.to_json`, `_moments`) to an anchor of its own, which the page has
    only when the notebook shows it; such a link (resolved by conf.py, class nbdev-doclink) lands on its class's entry,
    or else on the page."""
    ids, n = {}, 0
    def fix(m, page):
        nonlocal n
        href = m.group(2)
        path, _, frag = href.partition('#')
        target = (page.parent / path).resolve() if path else page
        if not frag or not target.is_file(): return m.group(0)
        have = ids.setdefault(target, html_ids(target))
        if frag in have: return m.group(0)
        n += 1
        cls = frag.split('.')[0]
        return m.group(1) + (f'{path}#{cls}' if '.' in frag and cls in have else path) + m.group(3)
    for page in site.rglob('*.html'):
        html = page.read_text()
        new = re.sub(r'(<a class="[^"]*nbdev-doclink[^"]*" href=")([^"]+)(")', lambda m: fix(m, page), html)
        if new != html: page.write_text(new)
    print(f"{n} links to a member without an entry of its own sent to its class or page")

TLDR_BEFORE_FIGURE = '''
const t = Array.from(document.querySelectorAll('table')).find(t => {
  let e = t; for (let i = 0; i < 6 && e; i++, e = e.previousElementSibling || e.parentElement)
    if (e.textContent.includes('TL;DR')) return true;
  return false; });
const img = document.querySelector('article img, main img, img');
return !!(t && img && (t.compareDocumentPosition(img) & Node.DOCUMENT_POSITION_FOLLOWING));'''

def dead_links(links:list, ids_of:dict) -> list:
    """Links of the site's pages whose target page does not exist, or whose anchor is not an id of that page.
    A link to the doc host (settings.ini's doc_host + doc_baseurl, where this site is published) is followed as a link
    into the built site: nbdev's page names that this site lacks are dead there too."""
    from urllib.parse import urlparse, unquote
    site, bad = (ROOT / '_docs').resolve(), []
    for page, href in links:
        if href.startswith(DOC_PREFIX): href = (site / href[len(DOC_PREFIX):]).as_uri().replace('%23', '#', 1) \
            if '#' in href else (site / href[len(DOC_PREFIX):]).as_uri()
        u = urlparse(href)
        if u.scheme != 'file': continue                                   # the web: not followed offline
        target = Path(unquote(u.path)).resolve()
        if site not in target.parents: continue                            # the browser's own pages
        if target.is_dir(): target = target / 'index.html'
        rel = target.relative_to(site).with_suffix('').as_posix()
        if not target.exists(): bad.append(f"{page}: dead link to {href if href.startswith('http') else target.relative_to(site)}")
        elif u.fragment and target.suffix == '.html' and unquote(u.fragment) not in ids_of.get(rel, html_ids(target)):
            bad.append(f"{page}: link to {rel}#{u.fragment}: no such anchor on that page")
    return sorted(set(bad))

def html_ids(path:Path) -> set:
    "The ids of a built page not opened by the browser test (read from its HTML)."
    return set(re.findall(r'\bid="([^"]+)"', path.read_text(errors='replace')))

def test():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    for a in ('--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
              '--disable-component-update', '--disable-sync', '--window-size=1400,2000', f'--user-data-dir={ROOT / "_docs" / ".chrome"}'):
        opts.add_argument(a)
    opts.binary_location = shutil.which('chromium') or '/usr/bin/chromium'
    drv = webdriver.Chrome(service=Service(shutil.which('chromedriver') or '/usr/bin/chromedriver'), options=opts)
    shots = ROOT / '_docs' / 'screenshots'; shots.mkdir(exist_ok=True)
    failures, n, ids_of, links, seen = [], 0, {}, [], {}
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
            prose = drv.execute_script("const m = (document.querySelector('main') || document.body).cloneNode(true); "
                                       "m.querySelectorAll('pre, code, .highlight').forEach(e => e.remove()); return m.textContent")
            ids = drv.execute_script("return Array.from(document.querySelectorAll('[id]')).map(e => e.id)")
            (shots / f'{page}.png').parent.mkdir(parents=True, exist_ok=True)
            if not drv.save_screenshot(str(shots / f'{page}.png')): failures.append(f'{page}: screenshot not saved')
            ids_of[page] = set(ids)
            height = drv.execute_script("return document.documentElement.scrollHeight")
            small = drv.execute_script("return Array.from(document.querySelectorAll('article img')).filter(i => i.naturalWidth > 0)"
                                       ".map(i => [i.src.split('/').pop(), Math.round(i.getBoundingClientRect().width), i.naturalWidth])")
            seen[page] = dict(height=height, figures=len(imgs), math=math, shown=small)
            links += [(page, h) for h in drv.execute_script("return Array.from(document.querySelectorAll('a[href]')).map(a => a.href)")]
            checks = [(f'{page}: page has a title', bool(drv.title))]
            raw_md = re.findall(r'.{0,40}\]\((?:\.\./|\./|https?:|[\w/]+\.(?:ipynb|md)).{0,40}', prose)
            checks.append((f'{page}: no raw Markdown link in the text' + (f' ({raw_md[:2]})' if raw_md else ''), not raw_md))
            if page in THEOREM_PAGES or page in ('index', 'core/00_spectra'):
                checks.append((f'{page}: math is typeset ({math} MathJax elements for {raw} math nodes)',
                               math >= raw and (math > 0 or page not in STORY_PAGES[:4] + ['index', 'core/00_spectra'])))
            if page in STORY_PAGES:
                checks.append((f'{page}: figures load ({len(imgs)} images)', len(imgs) >= 1 and all(ok for _, ok in imgs)))
                tldr = drv.execute_script(TLDR_BEFORE_FIGURE)
                checks.append((f'{page}: a TL;DR table stands before the first figure', tldr))
                code = drv.execute_script("return Array.from(document.querySelectorAll('.cell_input, div.highlight'))"
                                          ".map(e => e.innerText).join('\\n')")
                checks.append((f'{page}: the code that writes a TL;DR is hidden', 'tldr(' not in code))
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
    report(seen, shots)
    print(f"docs: {n - len(failures)} passed, {len(failures)} failed")
    if failures: sys.exit(1)

def report(seen:dict, shots:Path):
    "A reader's summary of the pages a reader meets first (the front page, the stories, one appendix): in CI's output."
    pages = [p for p in ['index'] + STORY_PAGES + ['theorems/42_frontier_appendix'] if p in seen]
    print(f"\n{'page':<34} {'height px':>9} {'figures':>7} {'maths':>6}  figures shown at (px of drawn px)")
    for p in pages:
        s = seen[p]
        figs = ', '.join(f"{w}/{nw}" for _, w, nw in s['shown'][:4]) + (' …' if len(s['shown']) > 4 else '')
        print(f"{p:<34} {s['height']:>9} {s['figures']:>7} {s['math']:>6}  {figs}")
    print(f"screenshots: {sum(1 for _ in shots.rglob('*.png'))} in {shots.relative_to(ROOT)} (window 1400 px wide)\n")

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

LOCAL_PATH = re.compile(r'(?<![\w.])(?:/work/|/tmp/|/home/|/root/|/Users/|[A-Z]:\\\\Users)|ipykernel_\d+|site-packages/|\.venv/')
RAW_REPR = re.compile(r'\bnp\.(?:True_|False_|(?:float|int|uint)\d+\()|<(?:function|bound method|module) [\w.]+|'
                      r' object at 0x[0-9a-f]+>|\btensor\(\[')

def output_problems(nb:Path) -> list:
    """What a reader should not meet in a notebook's stored outputs: a stderr box (warnings belong at their source, or
    in a sentence), a path of the machine that ran it, a raw Python repr (numpy scalars, function or object reprs,
    tensors) or a Python value whose repr the page wraps over lines where the reader expects a table or a sentence."""
    out = []
    for i, c in enumerate(json.loads(nb.read_text())['cells']):
        for o in c.get('outputs', []):
            d = o.get('data', {})
            text = ''.join(o.get('text', '')) + ''.join(d.get('text/plain', '')) + ''.join(d.get('text/markdown', '')) + \
                   ''.join(o.get('traceback', []))
            where = f"{nb.relative_to(NBS)} cell {i}"
            if o.get('output_type') == 'stream' and o.get('name') == 'stderr':
                out.append(f"{where}: a stderr box ({''.join(o['text']).strip().splitlines()[0][:100]!r})")
            if o.get('output_type') == 'error': out.append(f"{where}: an error ({o.get('ename')})")
            if (m := LOCAL_PATH.search(text)): out.append(f"{where}: a local path ({text[max(0, m.start() - 30):m.end() + 30]!r})")
            if (m := RAW_REPR.search(text)): out.append(f"{where}: a raw repr ({text[max(0, m.start() - 30):m.end() + 30]!r})")
            plain = ''.join(d.get('text/plain', ''))
            if o.get('output_type') == 'execute_result' and set(d) <= {'text/plain'} and plain[:1] in '([{' and '\n' in plain:
                out.append(f"{where}: a Python value wrapped over {len(plain.splitlines())} lines ({plain[:60]!r}…)")
    return out

def check_outputs():
    "Every notebook's stored outputs: no stderr box, local path or raw repr (`output_problems`)."
    bad = [p for nb in notebooks() for p in output_problems(nb)]
    for b in bad: print('FAIL ' + b)
    print(f"outputs: {len(notebooks())} notebooks, {len(bad)} problems")
    if bad: sys.exit(1)

def _described(mod) -> list:
    "(name, what, text) of every description show_doc renders for a module: docstrings and docments, methods included."
    import inspect
    from fastcore.docments import docments
    out = []
    for n in getattr(mod, '__all__', []):
        o = getattr(mod, n, None)
        if not (inspect.isfunction(o) or inspect.isclass(o)) or getattr(o, '__module__', '') != mod.__name__: continue
        objs = [(n, o)] + ([(f'{n}.{k}', v) for k, v in vars(o).items() if inspect.isfunction(v) and not k.startswith('_')]
                           if inspect.isclass(o) else [])
        for name, ob in objs:
            out.append((name, 'docstring', inspect.getdoc(ob) or ''))
            try: out += [(name, f'argument {k}', str(v)) for k, v in (docments(ob, full=False) or {}).items() if v]
            except Exception: pass
    return out

def description_problems(text:str) -> str:
    """What Markdown would garble in a description: a `*` outside `code` and `$maths$` (show_doc sets a docstring in
    italics, so `r*` closes them early and leaves a stray asterisk). Write `∗` (U+2217), `$r^*$` or `` `r*` ``."""
    prose = re.sub(r'`[^`]*`|\$[^$]*\$', '', text)
    m = re.search(r'\*', prose)
    return '' if not m else prose[max(0, m.start() - 30):m.end() + 20]

def check_descriptions():
    "Every exported function's, class's and method's docstring and docments render as written (`description_problems`)."
    import importlib, pkgutil
    sys.path.insert(0, str(ROOT))
    import entropic_bound
    from entropic_bound.harness.cli import EXPERIMENTS, theorem
    statements = set()                      # a claim-maker's first docstring line is its TL;DR statement, kept as published;
    for t in EXPERIMENTS:                   # the site keeps it whole on its show_doc entry (`docstring_stars`)
        try: statements |= {f"{j.judge.__module__}.{j.judge.__name__}" for j in theorem(t).judges.values()}
        except ImportError: pass
    bad, n = [], 0
    for m in pkgutil.walk_packages(entropic_bound.__path__, 'entropic_bound.'):
        if m.name.endswith('_modidx'): continue
        try: mod = importlib.import_module(m.name)
        except ImportError as e: print(f"skip {m.name}: {e}"); continue
        for name, what, text in _described(mod):
            n += 1
            if what == 'docstring' and f"{m.name}.{name}" in statements: text = '\n'.join(text.splitlines()[1:])
            if (p := description_problems(text)): bad.append(f"{m.name}.{name} {what}: a Markdown asterisk ({p!r})")
    for b in bad: print('FAIL ' + b)
    print(f"descriptions: {n} checked, {len(bad)} would not render as written")
    if bad: sys.exit(1)

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
    elif cmd == 'outputs': check_outputs()
    elif cmd == 'descriptions': check_descriptions()
    elif cmd == 'nbdev-docs': nbdev_docs_check()
    elif cmd == 'build': build()
    elif cmd == 'test': test()
    else: sys.exit(f"usage: {sys.argv[0]} build|test|outputs|descriptions|readme|check-readme|index|nbdev-docs")
