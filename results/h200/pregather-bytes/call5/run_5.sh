#!/bin/bash
# Call 5: the suite's forward sweeps of the five models routed to more than one expert per token, after
# pregather's copy became token-major (gemmtune/kernels/pregather.py; llama4-scout's top-1 routing still
# copies by index_select, so its rows stand).
# Code: c0148e3.
set -u
T0=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call5; mkdir -p $D /tmp/r5
cp ws_run.sh $D/
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
for m in deepseek-v3 qwen3-30b-a3b olmoe-1b-7b gpt-oss-20b mixtral-8x7b; do
  left=$(( 570 - ($(date +%s) - T0) ))
  [ $left -lt 60 ] && { echo "no time left for fwd $m" | tee -a /tmp/r5/suite_log.txt; continue; }
  start=$(date +%s)
  timeout $left python3 benchmarks/suite.py run --out /tmp/r5 --models $m --modes fwd > /tmp/r5/suite_fwd_$m.log 2>&1
  echo "suite fwd $m rc $? in $(( $(date +%s) - start )) s" | tee -a /tmp/r5/suite_fwd_$m.log /tmp/r5/suite_log.txt
done
rm -f /tmp/r5/*.journal.jsonl*
tar czf $D/call5_suite.tar.gz -C /tmp/r5 .
