#!/bin/bash
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
S="num_warps=8,use_tma_load_x=1,use_tma_load_dy=1,pregather=1,warp_specialize=1,use_tma_store=1,BLOCK_SIZE_K=256"
configs() {  # the suite's config of the shape (group $1), 32-row M steps with deeper rings, and ping-pong with them
  echo "$S,BLOCK_SIZE_M=64,BLOCK_SIZE_N=128,GROUP_SIZE_M=$1,num_stages=3"
  echo "$S,BLOCK_SIZE_M=32,BLOCK_SIZE_N=128,GROUP_SIZE_M=$1,num_stages=5"
  echo "$S,BLOCK_SIZE_M=32,BLOCK_SIZE_N=128,GROUP_SIZE_M=$1,num_stages=6"
  echo "$S,BLOCK_SIZE_M=32,BLOCK_SIZE_N=64,GROUP_SIZE_M=$1,num_stages=8,pingpong=1"
}
SHAPES=("llama4-scout gate_up 4096 8" "llama4-scout down 4096 8" "deepseek-v3 gate_up 4096 32" "qwen3-30b-a3b gate_up 4096 8"
        "olmoe-1b-7b gate_up 4096 32" "mixtral-8x7b down 4096 32" "llama4-scout down 16384 32" "mixtral-8x7b gate_up 4096 8")
args() { set -- $1; A=(--mode dw --model $1 --gemm $2 --tokens $3); mapfile -t C < <(configs $4); for c in "${C[@]}"; do A+=(--config "$c"); done; }
# compile every shape's configs in parallel processes, then the GPU tests alone, then the timings one shape at a time
for s in "${SHAPES[@]}"; do args "$s"; timeout 300 python3 benchmarks/ncu_probe.py "${A[@]}" --launches 1 > /dev/null 2>&1 & done
wait
timeout 300 python3 -m pytest -m gpu tests/test_gpu.py -k warp_specialized_dw -q 2>&1 | tail -5 > $OUT/pytest_dw.txt
cat $OUT/pytest_dw.txt
for s in "${SHAPES[@]}"; do args "$s"; timeout 100 python3 benchmarks/ncu_probe.py "${A[@]}" --rounds 5 --torch 2>&1 | grep -v Warning; done > $OUT/timings.txt
cat $OUT/timings.txt
