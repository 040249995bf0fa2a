#!/bin/bash
# Device call 9: the suite's forward sweeps of deepseek-v3 and gpt-oss-20b with entry 33's Gluon stores.
set -u
T0=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
mkdir -p /tmp/r
for m in deepseek-v3 gpt-oss-20b; do
  left=$(( 230 - ($(date +%s) - T0) ))
  [ $left -lt 50 ] && { echo "no time left for $m"; break; }
  start=$(date +%s)
  timeout $left python3 benchmarks/suite.py run --out /tmp/r --models $m --modes fwd > /tmp/r/suite_$m.log 2>&1
  echo "suite $m rc $? in $(( $(date +%s) - start )) s" | tee -a /tmp/r/suite_$m.log
done
python3 benchmarks/suite.py summarize --results /tmp/r 2>&1 | grep -E "deepseek|gpt-oss|fwd"
tar czf $OUT/results.tar.gz -C /tmp/r .
