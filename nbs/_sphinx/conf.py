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
