#!/bin/bash
# Device call 1: flatten (the persistent tile loop flattened, so the next tile's first TMA loads issue before
# this tile's epilogue) against the suite's plain forward configs, interleaved rounds, checked first.
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -2
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
cat $OUT/device.txt
cd benchmarks
T="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8"
probe() {  # name, then ncu_probe arguments
  name=$1; shift
  echo "=== $name"
  timeout 170 python3 ncu_probe.py --rounds 6 --torch --check "$@" 2>&1 | grep -v Warning | tee $OUT/$name.txt
}
probe mixtral_gate_up_4096 --model mixtral-8x7b --gemm gate_up --tokens 4096 \
  --config "$T,num_stages=4,use_tma_load_w=1,use_tma_load_x=1,pregather=1,half_tail=1" \
  --config "$T,num_stages=4,use_tma_load_w=1,use_tma_load_x=1,pregather=1" \
  --config "$T,num_stages=4,use_tma_load_w=1,use_tma_load_x=1,pregather=1,flatten=1" \
  --config "$T,num_stages=3,use_tma_load_w=1,use_tma_load_x=1,pregather=1,flatten=1"
probe mixtral_gate_up_16384 --model mixtral-8x7b --gemm gate_up --tokens 16384 \
  --config "$T,num_stages=3,use_tma_load_w=1,use_tma_load_x=1,pregather=1" \
  --config "$T,num_stages=4,use_tma_load_w=1,use_tma_load_x=1,pregather=1" \
  --config "$T,num_stages=3,use_tma_load_w=1,use_tma_load_x=1,pregather=1,flatten=1" \
  --config "$T,num_stages=4,use_tma_load_w=1,use_tma_load_x=1,pregather=1,flatten=1"
probe llama4_gate_up_16384 --model llama4-scout --gemm gate_up --tokens 16384 \
  --config "$T,num_stages=3,use_tma_load_w=1,use_tma_load_x=1,pregather=1" \
  --config "$T,num_stages=3,use_tma_load_w=1,use_tma_load_x=1,pregather=1,flatten=1" \
  --config "$T,num_stages=4,use_tma_load_w=1,use_tma_load_x=1,pregather=1,flatten=1"
probe mixtral_down_4096 --model mixtral-8x7b --gemm down --tokens 4096 \
  --config "$T,num_stages=4,use_tma_load_w=1,use_tma_load_x=1,half_tail=1" \
  --config "$T,num_stages=4,use_tma_load_w=1,use_tma_load_x=1" \
  --config "$T,num_stages=4,use_tma_load_w=1,use_tma_load_x=1,flatten=1"
probe mixtral_dx_gate_up_4096 --model mixtral-8x7b --gemm gate_up --tokens 4096 --mode dx \
  --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,GROUP_SIZE_M=8,num_warps=8,num_stages=3,use_tma_load_dy=1,use_tma_load_w=1,half_tail=1" \
  --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,GROUP_SIZE_M=8,num_warps=8,num_stages=3,use_tma_load_dy=1,use_tma_load_w=1" \
  --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,GROUP_SIZE_M=8,num_warps=8,num_stages=3,use_tma_load_dy=1,use_tma_load_w=1,flatten=1"
echo done
