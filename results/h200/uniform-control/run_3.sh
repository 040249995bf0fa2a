#!/bin/bash
# Call 3 (uniform-control, entry 57): the suite's fwd sweeps of all six models with the uniform control
# (f6c0fc7), packed into one file (at most 8 files come back).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call3; R=/tmp/r3; mkdir -p $D $R
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git status --short | grep -v "results/h200/" | head -20; } > $D/device.txt
for m in gpt-oss-20b mixtral-8x7b llama4-scout deepseek-v3 qwen3-30b-a3b olmoe-1b-7b; do
  left=$(( 585 - ($(date +%s) - T0) ))
  [ $left -lt 60 ] && { echo "no time left for fwd $m" | tee -a $R/suite_log.txt; continue; }
  start=$(date +%s)
  timeout $left python3 benchmarks/suite.py run --out $R --models $m --modes fwd > $R/suite_fwd_$m.log 2>&1
  echo "suite fwd $m rc $? in $(( $(date +%s) - start )) s" | tee -a $R/suite_log.txt
done
rm -f $R/*.journal.jsonl*
tar czf $D/call3_suite.tar.gz -C $R .
