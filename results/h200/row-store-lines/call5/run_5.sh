#!/bin/bash
# Call 5: the suite's forward sweeps of all six models on the 8-lane row store (entry 42), then the GPU tests
# of the TMA-store epilogues (whose partial tiles take the register store).
# Code: 49b85ea plus lanes8.patch (the working tree's change to gemmtune/ and tests/).
set -u
T0=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call5; mkdir -p $D/suite
cp ws_run.sh lanes8.patch $D/
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
for m in deepseek-v3 qwen3-30b-a3b olmoe-1b-7b gpt-oss-20b mixtral-8x7b llama4-scout; do
  left=$(( 420 - ($(date +%s) - T0) ))
  [ $left -lt 60 ] && { echo "no time left for fwd $m" | tee -a $D/suite_log.txt; continue; }
  start=$(date +%s)
  timeout $left python3 benchmarks/suite.py run --out $D/suite --models $m --modes fwd > $D/suite_fwd_$m.log 2>&1
  echo "suite fwd $m rc $? in $(( $(date +%s) - start )) s" | tee -a $D/suite_fwd_$m.log $D/suite_log.txt
done
rm -f $D/suite/*.journal.jsonl*
left=$(( 585 - ($(date +%s) - T0) ))
timeout $left python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py -k "(warp_specialized or merged_tail) and tma_store" 2>&1 | tail -15 > $D/pytest_tma_store.txt
cat $D/pytest_tma_store.txt
