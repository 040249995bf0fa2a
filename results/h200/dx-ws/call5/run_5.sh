#!/bin/bash
# Device call 5 (entry 39, after the review's launch_ws and test helper): the GPU tests of the Gluon kernels,
# forward, merged tails, dX and dW.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
timeout 500 python3 -m pytest -q tests/test_gpu.py -k "warp_specialized or merged_tail" 2>&1 | tail -3 | tee $OUT/pytest_ws.txt
