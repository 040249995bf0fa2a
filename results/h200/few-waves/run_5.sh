#!/bin/bash
# Call 5 (few-waves, docs/perf-notes.md entry 59): tail_orientation_probe.py, the merged tail in the forward and in dX.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call5; mkdir -p $D
cp results/h200/few-waves/{run_5.sh,tail_orientation_probe.py} $D/; git rev-parse HEAD > $D/commit.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
timeout 560 python3 results/h200/few-waves/tail_orientation_probe.py 3 > $D/tail_orientation_probe.txt 2>&1
echo "rc $?" >> $D/tail_orientation_probe.txt
cat $D/tail_orientation_probe.txt
