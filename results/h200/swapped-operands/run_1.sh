#!/bin/bash
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
timeout 260 python3 -m pytest -m gpu tests/test_gpu.py -k swapped -q -x 2>&1 | tail -15 > $OUT/pytest_swapped.txt
cat $OUT/pytest_swapped.txt
S="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,pregather=1,warp_specialize=1,swap_ab=1"
P="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1"
probe() { timeout 200 python3 benchmarks/ncu_probe.py --rounds 6 --torch --mode fwd "$@" 2>&1 | grep -v Warning; }
{
probe --model mixtral-8x7b --gemm gate_up --tokens 4096 --config "$P,num_stages=4,use_tma_load_x=1,pregather=1,half_tail=1" --config "$S,num_stages=4" --config "$S,num_stages=3"
probe --model llama4-scout --gemm gate_up --tokens 4096 --config "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,pregather=1,warp_specialize=1,num_stages=4,TAIL_ROWS=32" --config "$S,num_stages=4"
probe --model deepseek-v3 --gemm gate_up --tokens 16384 --config "$P,num_stages=3" --config "$S,num_stages=4"
} > $OUT/timings.txt 2>&1
grep -v "^==" $OUT/timings.txt
