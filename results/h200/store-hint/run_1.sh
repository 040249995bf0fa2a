#!/bin/bash
# Call 1: Y's stores with an L2 evict_first hint (1), as st.global.cs (2) and skipped (4), against the
# shipped stores (0), on the suite's best configs of the shapes that fall short; store_hint.patch applied.
cd "$(dirname "$0")/../../.." || exit 1
git apply results/h200/store-hint/store_hint.patch || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git diff --stat -- gemmtune; } > "$OUT/device.txt"
F="BLOCK_SIZE_K=64,num_warps=8,use_tma_load_w=1,GROUP_SIZE_M=8"
D="num_warps=8,use_tma_load_w=1,use_tma_load_dy=1,GROUP_SIZE_M=8"
probe() { echo "=== $*"; timeout 110 python3 results/h200/store-hint/store_hint_probe.py "$@" 2>&1 | grep -v Warning; }
{ probe --model mixtral-8x7b --gemm gate_up --mode fwd --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,$F,num_stages=4,TAIL_ROWS=32,use_tma_load_x=1,pregather=1,dynamic_schedule=1,warp_specialize=1"
  probe --model llama4-scout --gemm gate_up --mode fwd --config "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,$F,num_stages=4,TAIL_ROWS=32,use_tma_load_x=1,pregather=1,warp_specialize=1"
  probe --model mixtral-8x7b --gemm down --mode fwd --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,$F,num_stages=4,use_tma_load_x=1,half_tail=1"
  probe --model mixtral-8x7b --gemm gate_up --mode dx --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,$D,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1,warp_specialize=1"
  probe --model mixtral-8x7b --gemm down --mode dx --tokens 16384 --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,$D,num_stages=3,pregather=1,half_tail=1"
} > "$OUT/store_hint_1.txt"
git apply -R results/h200/store-hint/store_hint.patch
tail -c 5000 "$OUT/store_hint_1.txt"
