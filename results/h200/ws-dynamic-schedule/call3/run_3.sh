#!/bin/bash
# Device call 3 (dynamic schedule): forward sweeps of three models over the suite's space with the tile
# schedule as one more dimension (benchmarks/spaces/dynamic-fwd.toml), as benchmarks/suite.py runs them.
# (benchmarks/spaces/dynamic-fwd.toml was removed after this call; a copy is kept beside this script.)
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
timeout 540 python3 benchmarks/suite.py run --out $OUT --models deepseek-v3,gpt-oss-20b,mixtral-8x7b --modes fwd \
  --space benchmarks/spaces/dynamic-fwd.toml 2>&1 | tail -20 | tee $OUT/sweep_log.txt
