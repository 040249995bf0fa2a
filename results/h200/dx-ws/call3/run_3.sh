#!/bin/bash
# Device call 3 (entry 39): dX sweeps of mixtral-8x7b, llama4-scout and qwen3-30b-a3b over the suite's dX space,
# which now has the Gluon kernel (warp_specialize) with TAIL_ROWS and dynamic_schedule.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
mkdir -p sweeps
timeout 570 python3 benchmarks/suite.py run --out sweeps --models mixtral-8x7b,llama4-scout,qwen3-30b-a3b \
  --modes dx 2>&1 | grep -E "^gemmtune|configs:|best" | tee $OUT/sweep_log.txt
tar czf $OUT/sweeps.tgz sweeps
