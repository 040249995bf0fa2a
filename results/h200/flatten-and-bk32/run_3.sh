#!/bin/bash
# Device call 3: at 512 tokens (memory-bound), BLOCK_SIZE_K 32 with 6-9 stages against the default-space
# winners (BLOCK_SIZE_K 64, 4 stages), Gluon with merged tails and plain, interleaved rounds, checked first.
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -2
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
cd benchmarks
G="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,warp_specialize=1,TAIL_ROWS=32"
P="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1"
probe() {  # name, then ncu_probe arguments
  name=$1; shift
  echo "=== $name"
  timeout 170 python3 ncu_probe.py --rounds 8 --torch --check "$@" 2>&1 | grep -v Warning | tee $OUT/$name.txt
}
probe mixtral_gate_up_512 --model mixtral-8x7b --gemm gate_up --tokens 512 \
  --config "$G,pregather=1,BLOCK_SIZE_K=64,num_stages=4" \
  --config "$G,pregather=1,BLOCK_SIZE_K=32,num_stages=6" \
  --config "$G,pregather=1,BLOCK_SIZE_K=32,num_stages=8" \
  --config "$P,pregather=1,BLOCK_SIZE_K=64,num_stages=4" \
  --config "$P,pregather=1,BLOCK_SIZE_K=32,num_stages=8" \
  --config "$P,pregather=1,BLOCK_SIZE_K=32,num_stages=9"
probe mixtral_down_512 --model mixtral-8x7b --gemm down --tokens 512 \
  --config "$G,BLOCK_SIZE_K=64,num_stages=4" \
  --config "$G,BLOCK_SIZE_K=32,num_stages=6" \
  --config "$G,BLOCK_SIZE_K=32,num_stages=8" \
  --config "$P,BLOCK_SIZE_K=32,num_stages=8" \
  --config "$P,BLOCK_SIZE_K=32,num_stages=9"
echo done
