#!/usr/bin/env bash
# One lent-GPU session (issue 28): the CUDA checks, then paper-scale trained configs longest-first until the budget,
# every finished config stored as a record under $OUT (brought back by the `run` tool). Needs torch, numpy, pandas.
#   bash bench/device_session.sh [BUDGET_S]        # default 300 s of configs after the checks
# BENCHMARKS.md, section "The paper scale on a GPU".
set -uo pipefail
OUT=${OUT:-results/device}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv 2>&1 | tee "$OUT/gpu.txt"
python3 -c "import torch, numpy, pandas; print('torch', torch.__version__, 'cuda', torch.version.cuda)" 2>&1 | tee -a "$OUT/gpu.txt"
PYTHONUNBUFFERED=1 timeout 150 python3 bench/device_check.py --device cuda 2>&1 | tee "$OUT/device_check.txt"
PYTHONUNBUFFERED=1 python3 bench/device_sweeps.py --device cuda --out "$OUT/results" --budget "${1:-300}" 2>&1 | tee "$OUT/device_sweeps.txt"
