#!/bin/bash
# Call 1 (docs/perf-notes.md entry 49): the 8192^3 torch.mm, the torch baselines and the suite's configs of the
# eight compute-bound forward shapes, alone and interleaved, cold and hot (ceiling_probe.py).
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call1; mkdir -p $D
cp results/h200/ceiling/call1/run_1.sh $D/
cp results/h200/ceiling/call1/ceiling_probe.py $D/
git rev-parse HEAD > $D/commit.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,temperature.gpu --format=csv > $D/device.txt
timeout 500 python3 results/h200/ceiling/call1/ceiling_probe.py 5 > $D/ceiling_probe.txt 2>&1; echo "rc $?" >> $D/ceiling_probe.txt
nvidia-smi --query-gpu=temperature.gpu --format=csv >> $D/device.txt
cat $D/ceiling_probe.txt
