#!/bin/bash
# Device call 5 (dynamic schedule, after the review's refactor: one loop per partition for both schedules, the
# counter made in the launcher): the Gluon forward GPU tests with both schedules, and call 1's deepseek-v3 probe.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
timeout 300 python3 -m pytest -q tests/test_gpu.py -k "warp_specialized_forward or merged_tail" 2>&1 | tail -2 | tee $OUT/pytest_ws_forward.txt
T="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=3,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,warp_specialize=1"
(cd benchmarks && timeout 200 python3 ncu_probe.py --model deepseek-v3 --gemm gate_up --tokens 16384 --check --rounds 4 --torch \
  --config "$T" --config "$T,dynamic_schedule=1" --config "$T,TAIL_ROWS=32" --config "$T,TAIL_ROWS=32,dynamic_schedule=1") 2>&1 \
  | grep -v "^$" | tee $OUT/probes.txt
