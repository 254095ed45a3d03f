#!/usr/bin/env bash
# The one prepared device run (issue 10, item 4), for a session that is lent a GPU (`run` tool, `$OUT` comes back):
#   bash bench/device_run.sh          # CUDA checks, then the paper scale of every theorem, results tarred into $OUT
# It needs torch, numpy, matplotlib, seaborn, pandas and tqdm, which the lent H200 image has; not nbdev.
# The results cache lives in results/paper of the working tree, which a warm machine keeps between calls: if a
# call's time runs out, the same command continues where it stopped (a fresh machine starts over).
set -uo pipefail
OUT=${OUT:-results/device}
mkdir -p "$OUT" results/paper
PYTHONUNBUFFERED=1 python3 bench/device_check.py --device cuda 2>&1 | tee "$OUT/device_check.txt"
start=$(date +%s)
PYTHONUNBUFFERED=1 python3 -m entropic_bound.harness.cli --scale paper --device cuda --out results/paper 2>&1 | tee "$OUT/paper.log"
echo "paper scale: $(( $(date +%s) - start )) s" | tee -a "$OUT/paper.log"
tar czf "$OUT/paper.tar.gz" -C results paper
