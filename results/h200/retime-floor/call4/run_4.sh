#!/bin/bash
# Device call 4 (retime floor): the suite's dW sweep of deepseek-v3, resumed from call 3's journal where this
# machine still holds it.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
ls /tmp/r3/*deepseek* 2>&1 | tee $OUT/resume_from.txt
mkdir -p /tmp/r3
start=$(date +%s)
timeout 420 python3 benchmarks/suite.py run --out /tmp/r3 --models deepseek-v3 --modes dw > /tmp/r3/suite_dw_deepseek-v3_resumed.log 2>&1
echo "suite dw deepseek-v3 rc $? in $(( $(date +%s) - start )) s" | tee -a /tmp/r3/suite_dw_deepseek-v3_resumed.log
tar czf $OUT/results.tar.gz -C /tmp/r3 .
