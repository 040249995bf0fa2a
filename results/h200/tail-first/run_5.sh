#!/bin/bash
# Call 5 (tail-first, entry 52): the shipped order (the tail's wgmma first, probe 0) against the order before
# (the tile's first, probe 32; order_ab.patch) in one process per shape, with the same config without merged
# tails and the torch baselines (results/h200/tail-cost/tail_probe.py): the suite's configs with merged tails
# of the dX and forward shapes that fall short, at 4096 tokens, uniform routing.
cd "$(dirname "$0")/../../.." || exit 1
git apply results/h200/tail-first/order_ab.patch || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
D=$OUT/call5; mkdir -p $D
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git diff --stat -- gemmtune; } > $D/device.txt
COMMON="num_warps=8,num_stages=4,warp_specialize=1,TAIL_ROWS=32"
probe() { echo "=== $*"; timeout 110 python3 results/h200/tail-cost/tail_probe.py --tokens 4096 --variants 0,32 "$@" 2>&1 | grep -v Warning; }
{ probe --model mixtral-8x7b --gemm gate_up --mode dx \
    --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,use_tma_load_dy=1,use_tma_load_w=1,dynamic_schedule=1,$COMMON"
  probe --model mixtral-8x7b --gemm down --mode dx \
    --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,use_tma_load_dy=1,use_tma_load_w=1,pregather=1,dynamic_schedule=1,$COMMON"
  probe --model llama4-scout --gemm down --mode dx \
    --config "BLOCK_SIZE_M=256,BLOCK_SIZE_N=64,BLOCK_SIZE_K=128,use_tma_load_dy=1,use_tma_load_w=1,pregather=1,dynamic_schedule=1,$COMMON"
  probe --model mixtral-8x7b --gemm gate_up --mode fwd \
    --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,use_tma_load_x=1,use_tma_load_w=1,pregather=1,dynamic_schedule=1,$COMMON"
  probe --model llama4-scout --gemm gate_up --mode fwd \
    --config "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,use_tma_load_x=1,use_tma_load_w=1,pregather=1,$COMMON"
} > $D/order_ab.txt
git apply -R results/h200/tail-first/order_ab.patch
