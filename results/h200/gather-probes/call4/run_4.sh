#!/bin/bash
# Device call 4 (pregather speed): pregather's copy against a plain copy of the same bytes and a Triton row gather.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
python3 bench_tmp/gather_speed.py 2>&1 | grep -v Warning | tee $OUT/gather_speed.txt
