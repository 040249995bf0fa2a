#!/bin/bash
# Call 4 (tail-first, entry 52): the merged tail's wgmma issued before the tile's (gemmtune/kernels/fwd_ws.py
# k_loop). The suite's dX sweeps of all six models, then olmoe-1b-7b's forward sweep (no time was left for it
# in call 3), packed into one file.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call4; R=/tmp/r4; mkdir -p $D $R
cp results/h200/tail-first/run_4.sh $D/
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
for m in mixtral-8x7b llama4-scout deepseek-v3 gpt-oss-20b qwen3-30b-a3b olmoe-1b-7b; do
  left=$(( 530 - ($(date +%s) - T0) ))
  [ $left -lt 60 ] && { echo "no time left for dx $m" | tee -a $R/suite_log.txt; continue; }
  start=$(date +%s)
  timeout $left python3 benchmarks/suite.py run --out $R --models $m --modes dx > $R/suite_dx_$m.log 2>&1
  echo "suite dx $m rc $? in $(( $(date +%s) - start )) s" | tee -a $R/suite_log.txt
done
left=$(( 580 - ($(date +%s) - T0) ))
if [ $left -ge 50 ]; then
  start=$(date +%s)
  timeout $left python3 benchmarks/suite.py run --out $R --models olmoe-1b-7b --modes fwd > $R/suite_fwd_olmoe-1b-7b.log 2>&1
  echo "suite fwd olmoe-1b-7b rc $? in $(( $(date +%s) - start )) s" | tee -a $R/suite_log.txt
else
  echo "no time left for fwd olmoe-1b-7b" | tee -a $R/suite_log.txt
fi
rm -f $R/*.journal.jsonl*
tar czf $D/call4_suite.tar.gz -C $R .
