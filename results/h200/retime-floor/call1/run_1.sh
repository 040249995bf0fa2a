#!/bin/bash
# Device call 1 (retime stability): the sweep's re-time repeated under its current budget and under one with a
# per-round sample floor, on four forward gate_up shapes, each in one process.
set -u
T0=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
cd benchmarks
for spec in "mixtral-8x7b 16384" "deepseek-v3 16384" "gpt-oss-20b 16384" "mixtral-8x7b 4096"; do
  set -- $spec
  left=$(( 570 - ($(date +%s) - T0) ))
  [ $left -lt 40 ] && { echo "no time left for $1 $2"; break; }
  start=$(date +%s)
  timeout $left python3 retime_stability.py --model $1 --gemm gate_up --tokens $2 \
    --results ../results/h200/$1_fwd_M4096-16384_uniform_bf16.parquet --top 8 --repeats 3 \
    --budget "sweep:rounds=3,rep_ms=20" --budget "floor:rounds=5,rep_ms=20,min_samples=5" \
    --json $OUT/stability_$1_$2.json 2>&1 | tee $OUT/stability_$1_$2.txt
  echo "$1 $2 done in $(( $(date +%s) - start )) s" | tee -a $OUT/stability_$1_$2.txt
done
