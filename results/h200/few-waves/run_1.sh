#!/bin/bash
# Call 1 (few-waves, docs/perf-notes.md entry 59): few_waves_probe.py, the staircase of long tiles.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call1; mkdir -p $D
cp results/h200/few-waves/{run_1.sh,few_waves_probe.py} $D/; git rev-parse HEAD > $D/commit.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
timeout 560 python3 results/h200/few-waves/few_waves_probe.py 3 > $D/few_waves_probe.txt 2>&1
echo "rc $?" >> $D/few_waves_probe.txt
cat $D/few_waves_probe.txt
