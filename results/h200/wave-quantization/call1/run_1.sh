#!/bin/bash
# Call 1 (wave-quantization, docs/perf-notes.md entry 48): the staircase of time against tile count at balanced
# routing, and X's zero rows (wave_probe.py).
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call1; mkdir -p $D
cp results/h200/wave-quantization/call1/{run_1.sh,wave_probe.py} $D/; git rev-parse HEAD > $D/commit.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
timeout 560 python3 results/h200/wave-quantization/call1/wave_probe.py 3 > $D/wave_probe.txt 2>&1
echo "rc $?" >> $D/wave_probe.txt
cat $D/wave_probe.txt
