#!/bin/bash
# Device call 3 (loader gather): the whole GPU test suite with the final code (the loader warpgroup's 128 B
# of scratch now in the shared-memory estimate).
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
timeout 500 python3 -m pytest -q -m gpu tests/ -rs 2>&1 | tail -25 | tee $OUT/pytest_gpu.txt
