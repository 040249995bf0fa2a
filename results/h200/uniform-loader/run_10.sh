#!/bin/bash
# Call 10 (uniform-loader): after the review's mend (908157c: the tile total and dW's row start and count made
# warp-uniform where they are computed), the GPU tests of the Gluon forward, dX and dW kernels.
set -u
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git status --short | grep -v "results/h200/" | head -20; } > "$OUT/device.txt"
timeout 480 python3 -m pytest -q -m gpu tests/test_gpu.py \
  -k "warp_specialized or merged_tail or split_output" 2>&1 | tail -8 > "$OUT/pytest_gluon.txt"
cat "$OUT/pytest_gluon.txt"
