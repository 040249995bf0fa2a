#!/bin/bash
# Call 2 (few-waves, docs/perf-notes.md entry 59): tails_probe.py, what ragged experts cost dX gate_up.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call2; mkdir -p $D
cp results/h200/few-waves/{run_2.sh,tails_probe.py} $D/; git rev-parse HEAD > $D/commit.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
timeout 560 python3 results/h200/few-waves/tails_probe.py 3 > $D/tails_probe.txt 2>&1
echo "rc $?" >> $D/tails_probe.txt
cat $D/tails_probe.txt
