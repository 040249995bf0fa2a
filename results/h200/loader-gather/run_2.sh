#!/bin/bash
# Device call 2 (loader gather): the default space's forward configs (now with the loader's gather) within the
# shared-memory estimate, then the suite's forward sweeps of all six models, the topk-8 and topk-4 ones first.
set -u
T0=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
mkdir -p /tmp/r
timeout 150 python3 -m pytest -q -m gpu tests/test_gpu.py -k "predicted and fwd" -rs 2>&1 | tail -4 | tee /tmp/r/pytest_gpu_smem_fwd.txt
for m in deepseek-v3 qwen3-30b-a3b olmoe-1b-7b gpt-oss-20b mixtral-8x7b llama4-scout; do
  left=$(( 560 - ($(date +%s) - T0) ))
  [ $left -lt 60 ] && { echo "no time left for $m"; break; }
  start=$(date +%s)
  timeout $left python3 benchmarks/suite.py run --out /tmp/r --models $m --modes fwd > /tmp/r/suite_$m.log 2>&1
  echo "suite $m rc $? in $(( $(date +%s) - start )) s" | tee -a /tmp/r/suite_$m.log
done
python3 benchmarks/suite.py summarize --results /tmp/r 2>&1 | grep -E "fwd|gate_up|down" | head -30
tar czf $OUT/results.tar.gz -C /tmp/r .
