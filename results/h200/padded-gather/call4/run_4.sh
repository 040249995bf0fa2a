#!/bin/bash
# Call 4 (entry 41): the suite's dW sweep of deepseek-v3, then the GPU tests in the time left.
set -u
T0=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
mkdir -p $OUT/call4 /tmp/s4
cp ws_run.sh $OUT/call4/run_4.sh
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/call4/device.txt
start=$(date +%s)
timeout 420 python3 benchmarks/suite.py run --out /tmp/s4 --models deepseek-v3 --modes dw > /tmp/s4/suite_dw_deepseek-v3.log 2>&1
echo "suite dw deepseek-v3 rc $? in $(( $(date +%s) - start )) s" | tee -a /tmp/s4/suite_dw_deepseek-v3.log
tar czf $OUT/call4/sweeps.tar.gz -C /tmp/s4 .
left=$(( 580 - ($(date +%s) - T0) ))
timeout $left python3 -m pytest -q tests/test_gpu.py tests/test_kernels_backward.py tests/test_padded_gather.py 2>&1 | tail -15 > $OUT/call4/pytest_gpu.txt
echo "pytest rc ${PIPESTATUS[0]} with ${left} s" >> $OUT/call4/pytest_gpu.txt
