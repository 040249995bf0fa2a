#!/bin/bash
# Call 6: (a) look for call 5's forward suite files, which did not come back (more than 8 files under $OUT),
# and pack them; (b) the suite's dX sweeps of all six models on the 8-lane row store (entry 42), packed.
# Code: 49b85ea plus lanes8.patch (the working tree's change to gemmtune/ and tests/).
set -u
T0=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call6; mkdir -p $D /tmp/r6
cp ws_run.sh $D/
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
prev=$(timeout 60 find / -xdev -path '*call5/suite' -type d 2>/dev/null | head -1)
echo "call 5 suite folder: ${prev:-not found}" | tee $D/found.txt
if [ -n "$prev" ]; then tar czf $D/call5_suite.tar.gz -C "$(dirname $prev)" . ; fi
for m in deepseek-v3 qwen3-30b-a3b olmoe-1b-7b gpt-oss-20b mixtral-8x7b llama4-scout; do
  left=$(( 560 - ($(date +%s) - T0) ))
  [ $left -lt 45 ] && { echo "no time left for dx $m" | tee -a /tmp/r6/suite_log.txt; continue; }
  start=$(date +%s)
  timeout $left python3 benchmarks/suite.py run --out /tmp/r6 --models $m --modes dx > /tmp/r6/suite_dx_$m.log 2>&1
  echo "suite dx $m rc $? in $(( $(date +%s) - start )) s" | tee -a /tmp/r6/suite_dx_$m.log /tmp/r6/suite_log.txt
done
rm -f /tmp/r6/*.journal.jsonl*
tar czf $D/call6_suite_dx.tar.gz -C /tmp/r6 .
