#!/bin/bash
# Call 1 (store-hint's call 3 in the session): the Gluon K loop unrolled over the ring (GEMMTUNE_RING_ALIGNED=1,
# every slot a constant) against the loop as shipped (0), on the suite's Gluon configs of five shapes that fall
# short: checked, then interleaved; then under sustained load on two of them. The tree of this call carries
# the change (RING_ALIGNED in gemmtune/kernels/fwd_ws.py, read from the environment per launch).
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git diff --stat -- gemmtune; } > "$OUT/device.txt"
F="BLOCK_SIZE_K=64,num_warps=8,use_tma_load_w=1,GROUP_SIZE_M=8,num_stages=4,TAIL_ROWS=32,warp_specialize=1"
D="num_warps=8,use_tma_load_w=1,use_tma_load_dy=1,GROUP_SIZE_M=8,num_stages=4,TAIL_ROWS=32,warp_specialize=1"
MIX="--model mixtral-8x7b --gemm gate_up --mode fwd --config BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,$F,use_tma_load_x=1,pregather=1,dynamic_schedule=1"
LL="--model llama4-scout --gemm gate_up --mode fwd --config BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,$F,use_tma_load_x=1,pregather=1"
probe() { echo "=== $*"; timeout 110 python3 results/h200/ring-unroll/env_probe.py --env GEMMTUNE_RING_ALIGNED "$@" 2>&1 | grep -v Warning; }
{ probe $MIX
  probe $LL
  probe --model mixtral-8x7b --gemm gate_up --mode dx --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,$D,dynamic_schedule=1"
  probe --model mixtral-8x7b --gemm down --mode dx --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,$D,pregather=1,dynamic_schedule=1"
  probe --model llama4-scout --gemm down --mode dx --config "BLOCK_SIZE_M=256,BLOCK_SIZE_N=64,BLOCK_SIZE_K=128,$D,pregather=1,dynamic_schedule=1"
} > "$OUT/interleaved.txt"
{ probe $MIX --sustained 4 --variants 0,1
  probe $LL --sustained 4 --variants 0,1; } > "$OUT/sustained.txt"
grep -v "=0: \|=1: " "$OUT/interleaved.txt" | cut -c1-170; grep "check" "$OUT/interleaved.txt" | grep -v " ok " ; cat "$OUT/sustained.txt"
