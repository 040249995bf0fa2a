#!/bin/bash
# Device call 1 (dynamic schedule): the Gluon forward kernel with tiles claimed from an atomic counter against
# the same configs with the static stride, with and without merged tails, one process per shape.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
W="BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,warp_specialize=1"
P="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1"
probe() {  # label, then ncu_probe arguments
  label=$1; shift
  echo "## $label" | tee -a $OUT/probes.txt
  (cd benchmarks && timeout 200 python3 ncu_probe.py "$@" --check --rounds 4 --torch) 2>&1 | grep -v "^$" | tee -a $OUT/probes.txt
}
T="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=3,$W"
probe "deepseek-v3 gate_up 16384" --model deepseek-v3 --gemm gate_up --tokens 16384 \
  --config "$T" --config "$T,dynamic_schedule=1" --config "$T,TAIL_ROWS=32" --config "$T,TAIL_ROWS=32,dynamic_schedule=1" \
  --config "$P,num_stages=3"
G="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,num_stages=4,use_tma_load_x=1,pregather=1,$W"
H="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=3,use_tma_load_x=1,pregather=1,$W"
probe "mixtral-8x7b gate_up 4096" --model mixtral-8x7b --gemm gate_up --tokens 4096 \
  --config "$P,num_stages=3,use_tma_load_x=1,pregather=1,half_tail=1" \
  --config "$H" --config "$H,dynamic_schedule=1" --config "$H,TAIL_ROWS=32" --config "$H,TAIL_ROWS=32,dynamic_schedule=1" \
  --config "$G,TAIL_ROWS=32" --config "$G,TAIL_ROWS=32,dynamic_schedule=1"
probe "llama4-scout gate_up 16384" --model llama4-scout --gemm gate_up --tokens 16384 \
  --config "$P,num_stages=4,use_tma_load_x=1,pregather=1,half_tail=1" \
  --config "$H" --config "$H,dynamic_schedule=1" --config "$H,TAIL_ROWS=32" --config "$H,TAIL_ROWS=32,dynamic_schedule=1" \
  --config "$G,TAIL_ROWS=32" --config "$G,TAIL_ROWS=32,dynamic_schedule=1"
