# Sphinx configuration of the docs site, built offline from nbdev's processed notebooks (_proc/) by `.ci/docs.py build`.
# Users with quarto can still run nbdev_docs / nbdev_preview: nbs/_quarto.yml is nbdev's own configuration.
from configparser import ConfigParser
from pathlib import Path

_cfg = ConfigParser(delimiters=['=']); _cfg.read(Path(__file__).parents[2] / 'settings.ini', encoding='utf-8')
_c = _cfg['DEFAULT']
project, author, release = _c['title'], _c['author'], _c['version']
copyright = _c['copyright']

extensions = ['myst_nb', 'sphinx-mathjax-offline']       # MathJax served from _static: the site typesets math offline
myst_enable_extensions = ['dollarmath', 'amsmath', 'colon_fence']
myst_heading_anchors = 3
nb_execution_mode = 'off'           # rendered as stored: nothing is executed (.ci/docs.py build)
nb_execution_timeout = 900
nb_execution_raise_on_error = True
nb_merge_streams = True
nb_render_markdown_format = 'myst'   # outputs' Markdown (the TL;DR and verdict tables, the front table) as MyST: tables and math
suppress_warnings = ['myst.header', 'mystnb.unknown_mime_type', 'misc.highlighting_failure']
exclude_patterns = ['_build', '**.ipynb_checkpoints', '*.yml', 'styles.css', 'images/*.svg']
root_doc = 'index'
html_theme = 'sphinx_book_theme'
html_title = 'entropic-bound'
html_theme_options = {'repository_url': _c['git_url'], 'use_repository_button': True, 'show_toc_level': 2}

# nbdev links a backticked name to its own page names on the doc host (`entropic_bound/_modidx.py`,
# `https://<doc_host><doc_baseurl>/core/tasks.html#teachers`), while this site names its pages after the notebooks
# (`core/01_tasks.html`). Each such link is resolved here to this site's page, relative, anchor kept: the links land
# on this site wherever it is served (and offline). A link to a page nbdev names but this site lacks is left as is,
# and the browser test (`.ci/docs.py test`) reports it dead.
import re as _re
DOC_PREFIX = _c['doc_host'].rstrip('/') + '/' + _c['doc_baseurl'].strip('/') + '/'

def nbdev_page(docname:str) -> str:
    "The page name nbdev gives a notebook (nbdev.doclinks._nbpath2html): its file name lower-cased, the number prefix dropped."
    *folders, name = docname.split('/')
    return '/'.join(folders + [_re.sub(r'^\d+[a-zA-Z0-9]*_', '', name.lower())])

def _site_links(app, doctree, docname):
    from docutils import nodes
    pages = {nbdev_page(d): d for d in sorted(app.env.found_docs)}
    for ref in doctree.findall(nodes.reference):
        uri = ref.get('refuri', '')
        if not uri.startswith(DOC_PREFIX): continue
        path, _, frag = uri[len(DOC_PREFIX):].partition('#')
        page = _re.sub(r'(^|/)index$', '', path.removesuffix('.html')) or 'index'
        if page not in pages: continue
        ref['refuri'] = app.builder.get_relative_uri(docname, pages[page]) + (f'#{frag}' if frag else '')
        ref['internal'] = True
        ref['classes'] = [c for c in ref.get('classes', []) if c != 'external'] + ['internal', 'nbdev-doclink']

def setup(app):
    app.connect('doctree-resolved', _site_links)
    return {'parallel_read_safe': True}

html_static_path = ['_static']          # relative to this folder
html_css_files = ['site.css']
