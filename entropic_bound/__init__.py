__version__ = "0.1.0"

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
