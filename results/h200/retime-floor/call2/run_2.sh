#!/bin/bash
# Device call 2 (retime floor): the suite's forward sweeps of all six models with the re-time's new budget
# (5 rounds, about 5 launches per round), then its dX sweeps for as many models as the call has time for.
set -u
T0=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
mkdir -p /tmp/r
for mode in fwd dx; do
  for m in deepseek-v3 qwen3-30b-a3b olmoe-1b-7b gpt-oss-20b mixtral-8x7b llama4-scout; do
    left=$(( 570 - ($(date +%s) - T0) ))
    [ $left -lt 75 ] && { echo "no time left for $mode $m"; continue; }
    start=$(date +%s)
    timeout $left python3 benchmarks/suite.py run --out /tmp/r --models $m --modes $mode > /tmp/r/suite_${mode}_$m.log 2>&1
    echo "suite $mode $m rc $? in $(( $(date +%s) - start )) s" | tee -a /tmp/r/suite_${mode}_$m.log
  done
done
rm -f /tmp/r/*.journal.jsonl.tmp
tar czf $OUT/results.tar.gz -C /tmp/r .
