#!/bin/bash
# Device call 2: the Gluon forward kernel with BLOCK_SIZE_K 32 and 5-8 ring stages (the same bytes in flight
# in half-size slots) against its BLOCK_SIZE_K 64 configs and the suite's plain config, interleaved rounds.
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -2
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
cd benchmarks
P="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,pregather=1"
G="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,pregather=1,warp_specialize=1"
L="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,pregather=1,warp_specialize=1,TAIL_ROWS=32"
probe() {  # name, then ncu_probe arguments
  name=$1; shift
  echo "=== $name"
  timeout 170 python3 ncu_probe.py --rounds 6 --torch --check "$@" 2>&1 | grep -v Warning | tee $OUT/$name.txt
}
probe mixtral_gate_up_4096 --model mixtral-8x7b --gemm gate_up --tokens 4096 \
  --config "$P,num_stages=4,half_tail=1" \
  --config "$G,BLOCK_SIZE_K=64,num_stages=3,use_tma_store=1" --config "$G,BLOCK_SIZE_K=64,num_stages=4" \
  --config "$G,BLOCK_SIZE_K=32,num_stages=5,use_tma_store=1" --config "$G,BLOCK_SIZE_K=32,num_stages=6,use_tma_store=1" \
  --config "$G,BLOCK_SIZE_K=32,num_stages=8"
probe mixtral_gate_up_16384 --model mixtral-8x7b --gemm gate_up --tokens 16384 \
  --config "$P,num_stages=3" \
  --config "$G,BLOCK_SIZE_K=64,num_stages=3,use_tma_store=1" --config "$G,BLOCK_SIZE_K=64,num_stages=4" \
  --config "$G,BLOCK_SIZE_K=32,num_stages=6,use_tma_store=1" --config "$G,BLOCK_SIZE_K=32,num_stages=8"
probe llama4_gate_up_4096 --model llama4-scout --gemm gate_up --tokens 4096 \
  --config "$L,BLOCK_SIZE_K=64,num_stages=4" \
  --config "$L,BLOCK_SIZE_K=32,num_stages=8" --config "$L,BLOCK_SIZE_K=32,num_stages=6,use_tma_store=1"
probe llama4_gate_up_16384 --model llama4-scout --gemm gate_up --tokens 16384 \
  --config "$P,num_stages=3" \
  --config "$G,BLOCK_SIZE_K=64,num_stages=3,use_tma_store=1" \
  --config "$G,BLOCK_SIZE_K=32,num_stages=6,use_tma_store=1" --config "$G,BLOCK_SIZE_K=32,num_stages=8"
echo done
