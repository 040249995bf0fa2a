#!/bin/bash
# Call 7 (split-shares, entry 61): after the review's mend (pruning.reduction_steps; splits_tails takes N and K), the
# split-tail and merged-tail GPU tests again.
set -u
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git status --short | grep -v "results/h200/" | head -20; } > "$OUT/device.txt"
timeout 300 python3 -m pytest -q -m gpu tests/test_gpu.py -k "split_tail or merged_tail" 2>&1 | tail -4 \
  > "$OUT/pytest_tails.txt"
cat "$OUT/pytest_tails.txt"
