#!/bin/bash
# Device call 4 (dynamic schedule): forward sweeps of the other three models, and mixtral-8x7b again (call 3's
# mixtral parquet did not come back), over the suite's forward space, which now has dynamic_schedule.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
mkdir -p sweeps
timeout 550 python3 benchmarks/suite.py run --out sweeps --models qwen3-30b-a3b,llama4-scout,olmoe-1b-7b,mixtral-8x7b \
  --modes fwd 2>&1 | grep -E "^gemmtune|configs:|best" | tee $OUT/sweep_log.txt
tar czf $OUT/sweeps.tgz sweeps
