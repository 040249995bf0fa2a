#!/bin/bash
# Device call 6: the whole GPU test suite with row_store_layout; the default-space forward sweeps at 512
# tokens (mixtral-8x7b, llama4-scout); the suite's forward sweeps of llama4-scout and mixtral-8x7b.
set -u
T0=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
mkdir -p /tmp/r/m512 /tmp/r/suite
timeout 240 python3 -m pytest -q -m gpu tests/ -rs 2>&1 | tail -25 > $OUT/pytest_gpu.txt
tail -3 $OUT/pytest_gpu.txt
for m in mixtral-8x7b llama4-scout; do
  start=$(date +%s)
  timeout 100 gemmtune sweep --model $m --tokens 512 --mode fwd --out /tmp/r/m512 -q > /tmp/r/m512/sweep_$m.txt 2>&1
  echo "sweep rc $? in $(( $(date +%s) - start )) s" >> /tmp/r/m512/sweep_$m.txt
  tail -1 /tmp/r/m512/sweep_$m.txt
done
PYTHONPATH=benchmarks python3 benchmarks/weight_floor.py /tmp/r/m512/*_fwd_M512_*.parquet | tee /tmp/r/m512/weight_floor.txt
for m in llama4-scout mixtral-8x7b; do
  left=$(( 560 - ($(date +%s) - T0) ))
  [ $left -lt 60 ] && { echo "no time left for $m"; break; }
  start=$(date +%s)
  timeout $left python3 benchmarks/suite.py run --out /tmp/r/suite --models $m --modes fwd > /tmp/r/suite/suite_$m.log 2>&1
  echo "suite $m rc $? in $(( $(date +%s) - start )) s" | tee -a /tmp/r/suite/suite_$m.log
done
python3 benchmarks/suite.py summarize --results /tmp/r/suite 2>&1 | grep -E "llama4|mixtral|fwd" | head -20
tar czf $OUT/results.tar.gz -C /tmp/r .
ls -la $OUT
