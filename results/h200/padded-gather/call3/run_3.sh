#!/bin/bash
# Call 3 (entry 41): the padded gather's tests on the GPU, then the suite's dW sweeps of five models.
set -u
T0=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
mkdir -p $OUT/call3 /tmp/s3
cp ws_run.sh $OUT/call3/run_3.sh
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/call3/device.txt
timeout 60 python3 -m pytest -q tests/test_padded_gather.py 2>&1 | tail -2 > $OUT/call3/pytest_padded_gather.txt
for model in qwen3-30b-a3b olmoe-1b-7b gpt-oss-20b llama4-scout mixtral-8x7b; do
  left=$(( 575 - ($(date +%s) - T0) ))
  [ $left -lt 60 ] && { echo "no time left for $model" | tee -a $OUT/call3/skipped.txt; continue; }
  start=$(date +%s)
  timeout $left python3 benchmarks/suite.py run --out /tmp/s3 --models $model --modes dw > /tmp/s3/suite_dw_$model.log 2>&1
  echo "suite dw $model rc $? in $(( $(date +%s) - start )) s" | tee -a /tmp/s3/suite_dw_$model.log
done
tar czf $OUT/call3/sweeps.tar.gz -C /tmp/s3 .
