#!/bin/bash
# Call 3 (tail-first, entry 52): the merged tail's wgmma issued before the tile's (gemmtune/kernels/fwd_ws.py
# k_loop). The GPU tests of the Gluon forward and dX kernels, merged tails among them; then the suite's
# forward sweeps of all six models, packed into one file (at most 8 files come back from the device).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call3; R=/tmp/r3; mkdir -p $D $R
cp results/h200/tail-first/run_3.sh $D/
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
timeout 170 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "merged_tail_forward or warp_specialized_forward or warp_specialized_dx" > $D/pytest_gpu.txt 2>&1
echo "pytest rc $? in $(( $(date +%s) - T0 )) s" >> $D/pytest_gpu.txt
for m in mixtral-8x7b llama4-scout deepseek-v3 gpt-oss-20b qwen3-30b-a3b olmoe-1b-7b; do
  left=$(( 570 - ($(date +%s) - T0) ))
  [ $left -lt 60 ] && { echo "no time left for fwd $m" | tee -a $R/suite_log.txt; continue; }
  start=$(date +%s)
  timeout $left python3 benchmarks/suite.py run --out $R --models $m --modes fwd > $R/suite_fwd_$m.log 2>&1
  echo "suite fwd $m rc $? in $(( $(date +%s) - start )) s" | tee -a $R/suite_log.txt
done
rm -f $R/*.journal.jsonl*
tar czf $D/call3_suite.tar.gz -C $R .
