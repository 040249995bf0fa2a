#!/bin/bash
# Call 6 (tail-first, entry 52): call 5's two shapes where the shipped order read slower (mixtral-8x7b's gate_up
# at 4096 tokens, forward and dX) and one where it read faster (mixtral's down dX), each in three fresh
# processes, 8 interleaved rounds: the shipped order (probe 0) against the one before (probe 32).
cd "$(dirname "$0")/../../.." || exit 1
git apply results/h200/tail-first/order_ab.patch || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
D=$OUT/call6; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv > $D/device.txt
COMMON="num_warps=8,num_stages=4,warp_specialize=1,TAIL_ROWS=32,dynamic_schedule=1"
probe() { echo "=== $*"; timeout 100 python3 results/h200/tail-cost/tail_probe.py --tokens 4096 --variants 0,32 --rounds 8 "$@" 2>&1 | grep -v Warning; }
{ for rep in 1 2 3; do
    probe --model mixtral-8x7b --gemm gate_up --mode fwd \
      --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,use_tma_load_x=1,use_tma_load_w=1,pregather=1,$COMMON"
    probe --model mixtral-8x7b --gemm gate_up --mode dx \
      --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,use_tma_load_dy=1,use_tma_load_w=1,$COMMON"
    probe --model mixtral-8x7b --gemm down --mode dx \
      --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,use_tma_load_dy=1,use_tma_load_w=1,pregather=1,$COMMON"
  done; } > $D/order_ab_repeats.txt
git apply -R results/h200/tail-first/order_ab.patch
