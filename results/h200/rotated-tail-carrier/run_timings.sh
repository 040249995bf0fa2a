#!/bin/bash
# Merged tails carried by a block that rotates with the column (common.merged_tail_tile): GPU correctness,
# then same-process timings against the suite's best configs.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)" >> $OUT/device.txt
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -k merged_tail > $OUT/pytest_merged_tail.txt 2>&1
timeout 90 python3 -m pytest -q tests/test_kernel_fwd.py tests/test_schedule.py >> $OUT/pytest_merged_tail.txt 2>&1
grep -E "passed|failed" $OUT/pytest_merged_tail.txt
B="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1"
P="use_tma_load_x=1,pregather=1"
probe() { echo "== $*"; timeout 150 python3 benchmarks/ncu_probe.py --rounds 6 --torch --mode fwd "$@" 2>&1 | grep -v Warning; }
{
probe --model mixtral-8x7b --gemm gate_up --tokens 4096 --config "$B,num_stages=4,$P,half_tail=1" \
  --config "$B,num_stages=4,$P,half_tail=1,TAIL_ROWS=16" --config "$B,num_stages=4,$P,half_tail=1,TAIL_ROWS=32" \
  --config "$B,num_stages=3,$P,warp_specialize=1,TAIL_ROWS=32"
probe --model deepseek-v3 --gemm gate_up --tokens 16384 --config "$B,num_stages=3" \
  --config "$B,num_stages=3,half_tail=1,TAIL_ROWS=16" --config "$B,num_stages=3,half_tail=1,TAIL_ROWS=32"
probe --model mixtral-8x7b --gemm gate_up --tokens 16384 --config "$B,num_stages=3,$P" \
  --config "$B,num_stages=3,$P,TAIL_ROWS=16" --config "$B,num_stages=3,$P,TAIL_ROWS=32"
} > $OUT/timings.txt 2>&1
cat $OUT/timings.txt | grep -v "^=="
