#!/bin/bash
# Device call 3 (retime floor): the suite's dX sweep of llama4-scout and its dW sweeps, as many models as the
# call has time for, with the re-time's new budget.
set -u
T0=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
mkdir -p /tmp/r3
for spec in "dx llama4-scout" "dw qwen3-30b-a3b" "dw olmoe-1b-7b" "dw gpt-oss-20b" "dw llama4-scout" "dw mixtral-8x7b" "dw deepseek-v3"; do
  set -- $spec
  left=$(( 570 - ($(date +%s) - T0) ))
  [ $left -lt 100 ] && { echo "no time left for $1 $2"; continue; }
  start=$(date +%s)
  timeout $left python3 benchmarks/suite.py run --out /tmp/r3 --models $2 --modes $1 > /tmp/r3/suite_$1_$2.log 2>&1
  echo "suite $1 $2 rc $? in $(( $(date +%s) - start )) s" | tee -a /tmp/r3/suite_$1_$2.log
done
tar czf $OUT/results.tar.gz -C /tmp/r3 .
