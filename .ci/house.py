#!/usr/bin/env python
"""The house's rules, checked on the syntax trees of every module of `entropic_bound` (issue 44's measures).
`.ci/run` runs it with `--ratchet`: the rules must hold, and each measure must stay within RATCHET (today's value, so
that none grows) until it reaches LIMITS (issue 44's goal); without `--ratchet` the goal itself is the limit.

Rules (each violation is listed, and any makes the exit status 1):
- no import cycle between modules (imports inside functions and `importlib.import_module` calls count);
- layers import downward only: core <- estimators <- real, harness <- theorems (see LAYERS); a harness module reaches a
  theorem only by discovering it (`importlib.import_module` of a name it does not spell out);
- no module imports another module's private `_name`;
- only theorem and harness modules import `entropic_bound.harness.claims`; no reason text (`*WHY*` names) outside the
  theorem layer;
- the estimators users call are defined in library modules (not in a theorem or the harness);
- outside the real-model adapters no code names a model family.
Measures (printed; each must stay within its limit): the largest module (lines, `_modidx.py` excluded), the largest
`__all__`, functions over 60 lines, lines over 120 characters.
"""
import ast, sys, re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / 'entropic_bound'
# layer -> the layers it may import
LAYERS = {'core': {'core'}, 'estimators': {'core', 'estimators'}, 'real': {'core', 'estimators', 'real'},
          'harness': {'core', 'estimators', 'harness'}, 'theorems': {'core', 'estimators', 'real', 'harness', 'theorems'}}
PUBLIC = {'recover_kernel_rank': 'estimators', 'attention_native_rank': 'estimators', 'energy_rank': 'core',
          'apply_head_ranks': 'real'}
FAMILIES = re.compile(r'^(bert|gpt2|gpt-2|llama)$', re.I)
LIMITS = dict(module_lines=800, all_names=60, function_lines=60, line_chars=120)
RATCHET = dict(module_lines=800, all_names=60, functions_over=0, long_lines=0)   # the goals themselves, met since the stories landed

def modules() -> dict:
    "Dotted name -> path of every module of the package (`_modidx` and `__init__` files excluded)."
    out = {}
    for p in sorted(PKG.rglob('*.py')):
        rel = p.relative_to(ROOT).with_suffix('')
        if p.name in ('_modidx.py', '__init__.py'): continue
        out['.'.join(rel.parts)] = p
    return out

def layer(mod:str) -> str:
    "The layer of a dotted module name."
    parts = mod.split('.')
    return parts[1] if len(parts) > 2 and parts[1] in LAYERS else 'core'

def resolve(mod:str, node:ast.ImportFrom) -> str:
    "The absolute module an `ImportFrom` names."
    if not node.level: return node.module or ''
    base = mod.split('.')[:-node.level]
    return '.'.join(base + ([node.module] if node.module else []))

def imports(mod:str, tree:ast.AST, known:set) -> list:
    "(target module, imported names, dynamic) of every import in `tree`, anywhere in it."
    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Import):
            out += [(a.name, [], False) for a in n.names if a.name.startswith('entropic_bound')]
        elif isinstance(n, ast.ImportFrom):
            tgt = resolve(mod, n)
            if not tgt.startswith('entropic_bound'): continue
            names = [a.name for a in n.names]
            subs = [f"{tgt}.{a}" for a in names if f"{tgt}.{a}" in known]     # `from pkg import module`
            out += [(s, [], False) for s in subs]
            if len(subs) < len(names): out.append((tgt, [a for a in names if f"{tgt}.{a}" not in known], False))
        elif isinstance(n, ast.Call) and getattr(n.func, 'attr', getattr(n.func, 'id', '')) in ('import_module',
                                                                                                '__import__'):
            arg = n.args[0] if n.args else None
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str): out.append((arg.value, [], False))
            elif isinstance(arg, ast.JoinedStr):
                head = ''.join(v.value for v in arg.values if isinstance(v, ast.Constant))
                out.append((head.rstrip('.'), [], True))
    return out

def cycles(graph:dict) -> list:
    "Every elementary cycle's node set, found by Tarjan's strongly connected components (size > 1 or a self-loop)."
    idx, low, stack, on, out, i = {}, {}, [], set(), [], [0]
    def visit(v):
        idx[v] = low[v] = i[0]; i[0] += 1; stack.append(v); on.add(v)
        for w in graph.get(v, ()):
            if w not in idx: visit(w); low[v] = min(low[v], low[w])
            elif w in on: low[v] = min(low[v], idx[w])
        if low[v] == idx[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1 or v in graph.get(v, ()): out.append(sorted(comp))
    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in idx: visit(v)
    return out

def check() -> tuple:
    "(violations, measures) of the package as it stands."
    mods = modules(); known = set(mods) | {'.'.join(p.relative_to(ROOT).parts[:-1]) for p in PKG.rglob('__init__.py')}
    graph, bad = {m: set() for m in mods}, []
    measures = dict(module_lines=(0, ''), all_names=(0, ''), function_lines=[], line_chars=0)
    for m, p in mods.items():
        src = p.read_text(); tree = ast.parse(src); lay = layer(m)
        is_adapter = '.families.' in m or m.endswith('.adapters')
        for tgt, names, dynamic in imports(m, tree, known):
            if tgt in mods: graph[m].add(tgt)
            tl = layer(tgt)
            if tgt == 'entropic_bound.harness.claims' and lay not in ('theorems', 'harness'):
                bad.append(f"{m} ({lay}) imports entropic_bound.harness.claims")
            elif tl not in LAYERS[lay] and not (dynamic and lay == 'harness'):
                bad.append(f"{m} ({lay}) imports {tgt} ({tl})" + (' dynamically' if dynamic else ''))
            priv = [n for n in names if n.startswith('_') and not n.startswith('__')]
            if priv and tgt != m: bad.append(f"{m} imports private {priv} from {tgt}")
        for n in tree.body:
            targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(n, ast.AnnAssign) else []
            for t in targets:
                if isinstance(t, ast.Name) and 'WHY' in t.id and lay != 'theorems':
                    bad.append(f"{m} ({lay}) holds the reason text {t.id}")
                if isinstance(t, ast.Name) and t.id == '__all__' and isinstance(n.value, (ast.List, ast.Tuple)):
                    if len(n.value.elts) > measures['all_names'][0]: measures['all_names'] = (len(n.value.elts), m)
            if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name in PUBLIC and lay != PUBLIC[n.name]:
                bad.append(f"{n.name} is defined in {m} ({lay}), not in the {PUBLIC[n.name]} layer")
        for n in ast.walk(tree):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = n.end_lineno - n.lineno + 1
                if length > LIMITS['function_lines']: measures['function_lines'].append((length, f"{m}.{n.name}"))
            if not is_adapter and isinstance(n, ast.Constant) and isinstance(n.value, str) and FAMILIES.match(n.value):
                bad.append(f"{m}:{n.lineno} names the model family {n.value!r} outside the adapters")
        lines = src.splitlines()
        if len(lines) > measures['module_lines'][0]: measures['module_lines'] = (len(lines), m)
        # nbdev wraps `__all__` at 120 characters and then prefixes `__all__ = `: that generated line is not counted
        measures['line_chars'] += sum(len(l) > LIMITS['line_chars'] and not l.startswith('__all__ = [') for l in lines)
    for c in cycles(graph): bad.append(f"import cycle: {' <-> '.join(c)}")
    return list(dict.fromkeys(bad)), measures

def main(limits:dict=None) -> int:
    bad, ms = check()
    for b in bad: print('FAIL', b)
    limits = {**LIMITS, **(limits or {})}
    fl = sorted(ms['function_lines'], reverse=True)
    rows = [('largest module (lines)', ms['module_lines'][0], limits['module_lines'], ms['module_lines'][1]),
            ('largest __all__ (names)', ms['all_names'][0], limits['all_names'], ms['all_names'][1]),
            (f"functions over {LIMITS['function_lines']} lines", len(fl), limits.get('functions_over', 0),
             ', '.join(f"{n} ({k})" for k, n in fl[:6])),
            (f"lines over {LIMITS['line_chars']} characters", ms['line_chars'], limits.get('long_lines', 0), '')]
    over = []
    for what, v, lim, where in rows:
        ok = v <= lim
        print(f"{'ok  ' if ok else 'OVER'} {what}: {v} (limit {lim}) {where}")
        if not ok: over.append(what)
    print(f"house: {len(bad)} rule violations, {len(over)} measures over their limits")
    return 1 if bad or over else 0

if __name__ == '__main__': sys.exit(main(RATCHET if '--ratchet' in sys.argv[1:] else None))
