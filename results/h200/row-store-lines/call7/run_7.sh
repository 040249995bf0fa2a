#!/bin/bash
# Call 7: the suite's forward sweeps of all six models on the 8-lane row store (entry 42), packed into one
# file (call 5 ran them, but its files did not come back: more than 8 under $OUT), then gpt-oss-20b's dW
# sweeps (its down GEMM's N of 2880 sends the tiles past N through the register store) if time is left.
# Code: 49b85ea plus lanes8.patch (the working tree's change to gemmtune/ and tests/).
set -u
T0=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call7; mkdir -p $D /tmp/r7
cp ws_run.sh lanes8.patch $D/
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
for m in deepseek-v3 qwen3-30b-a3b olmoe-1b-7b gpt-oss-20b mixtral-8x7b llama4-scout; do
  left=$(( 500 - ($(date +%s) - T0) ))
  [ $left -lt 60 ] && { echo "no time left for fwd $m" | tee -a /tmp/r7/suite_log.txt; continue; }
  start=$(date +%s)
  timeout $left python3 benchmarks/suite.py run --out /tmp/r7 --models $m --modes fwd > /tmp/r7/suite_fwd_$m.log 2>&1
  echo "suite fwd $m rc $? in $(( $(date +%s) - start )) s" | tee -a /tmp/r7/suite_fwd_$m.log /tmp/r7/suite_log.txt
done
left=$(( 575 - ($(date +%s) - T0) ))
if [ $left -ge 80 ]; then
  start=$(date +%s)
  timeout $left python3 benchmarks/suite.py run --out /tmp/r7 --models gpt-oss-20b --modes dw > /tmp/r7/suite_dw_gpt-oss-20b.log 2>&1
  echo "suite dw gpt-oss-20b rc $? in $(( $(date +%s) - start )) s" | tee -a /tmp/r7/suite_dw_gpt-oss-20b.log /tmp/r7/suite_log.txt
else
  echo "no time left for dw gpt-oss-20b" | tee -a /tmp/r7/suite_log.txt
fi
rm -f /tmp/r7/*.journal.jsonl*
tar czf $D/call7_suite.tar.gz -C /tmp/r7 .
