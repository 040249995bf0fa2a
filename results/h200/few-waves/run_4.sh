#!/bin/bash
# Call 4 (few-waves, docs/perf-notes.md entry 59): ragged_probe.py, the tail configs on routings with and without tails.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call4; mkdir -p $D
cp results/h200/few-waves/{run_4.sh,ragged_probe.py} $D/; git rev-parse HEAD > $D/commit.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
timeout 560 python3 results/h200/few-waves/ragged_probe.py 3 --tails-everywhere > $D/ragged_probe.txt 2>&1
echo "rc $?" >> $D/ragged_probe.txt
cat $D/ragged_probe.txt
