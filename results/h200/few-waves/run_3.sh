#!/bin/bash
# Call 3 (few-waves, docs/perf-notes.md entry 59): ragged_probe.py, which part of ragged experts costs dX gate_up.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call3; mkdir -p $D
cp results/h200/few-waves/{run_3.sh,ragged_probe.py} $D/; git rev-parse HEAD > $D/commit.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
timeout 560 python3 results/h200/few-waves/ragged_probe.py 3 > $D/ragged_probe.txt 2>&1
echo "rc $?" >> $D/ragged_probe.txt
cat $D/ragged_probe.txt
