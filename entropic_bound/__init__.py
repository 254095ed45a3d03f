"""entropic-bound: the query–key rank of attention, read from weights and from data.

The names users call first, importable from the top level (`from entropic_bound import recover_kernel_rank`); each is
loaded on first use, so `import entropic_bound` stays as light as before. The full module paths stay where they are
(the docs page `api` lists both)."""
__version__ = "0.1.0"

# name -> the module (below entropic_bound) that defines it; at most 15 (one slot kept for eb-compress)
_API = {
    'recover_kernel_rank': 'estimators.kernel_rank', 'kernel_rank_readings': 'estimators.kernel_rank',
    'KernelRank': 'estimators.kernel_rank', 'likelihood_reading': 'estimators.likelihood_rank',
    'attention_native_rank': 'estimators.native_rank', 'whitened_rank': 'estimators.reduced_rank',
    'estimator': 'estimators.registry', 'select': 'estimators.registry',
    'energy_rank': 'spectra', 'energy_field': 'spectra', 'effective_ranks': 'spectra', 'gavish_donoho_rank': 'spectra',
    'measure_model': 'real.heads', 'reproduction_error': 'real.heads'}
__all__ = list(_API)

def __getattr__(name):
    "A curated name, imported from its module on first use."
    if name not in _API: raise AttributeError(f"module 'entropic_bound' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(f'{__name__}.{_API[name]}'), name)
    globals()[name] = value
    return value

def __dir__(): return sorted(set(globals()) | set(_API))

# module paths the house's rewrite moved: they still import, with a DeprecationWarning naming the new path
_MOVED = {'entropic_bound.frontier': 'entropic_bound.theorems.frontier',
          'entropic_bound.real_heads': 'entropic_bound.theorems.real_heads'}

class _MovedFinder:
    "Finds a moved module path and hands back the module at its new path, with a DeprecationWarning."
    def find_spec(self, fullname, path=None, target=None):
        if fullname not in _MOVED: return None
        from importlib.machinery import ModuleSpec
        return ModuleSpec(fullname, self)
    def create_module(self, spec):
        import importlib, warnings
        warnings.warn(f"{spec.name} has moved to {_MOVED[spec.name]}: import it from there (the old path will be "
                      "removed)", DeprecationWarning, stacklevel=2)
        module = importlib.import_module(_MOVED[spec.name])
        self.spec = module.__spec__                    # the import system sets __spec__ on what we return: kept
        return module
    def exec_module(self, module): module.__spec__ = self.spec

def _install_moved_finder():
    import sys
    if not any(isinstance(f, _MovedFinder) for f in sys.meta_path): sys.meta_path.append(_MovedFinder())

_install_moved_finder()

def _threads_under_nbdev_test():
    """nbdev_test runs the notebooks in parallel worker processes, one per core up to 8 (`IN_TEST` set in each):
    give each worker its share of the cores as torch threads, as a run of its own would have them. Without this each
    worker takes all cores, and the small products of the trainers' loops wait on threads that another worker holds
    (BENCHMARKS.md, "Torch threads under nbdev_test"). A run in the main process (one notebook) and an explicit
    OMP_NUM_THREADS are left alone."""
    import os, multiprocessing
    if not os.environ.get('IN_TEST') or 'OMP_NUM_THREADS' in os.environ or multiprocessing.parent_process() is None:
        return
    import torch
    cores = len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else (os.cpu_count() or 1)
    torch.set_num_threads(max(1, cores // min(cores, 8)))

_threads_under_nbdev_test()
