#!/bin/bash
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
S="BLOCK_SIZE_M=64,num_warps=8,use_tma_load_x=1,use_tma_load_dy=1,pregather=1,warp_specialize=1"
configs() {  # the suite's config of the shape (group $1), then four ping-pong configs
  echo "$S,BLOCK_SIZE_N=128,BLOCK_SIZE_K=256,GROUP_SIZE_M=$1,num_stages=3,use_tma_store=1"
  echo "$S,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,GROUP_SIZE_M=$1,num_stages=4,use_tma_store=1,pingpong=1"
  echo "$S,BLOCK_SIZE_N=128,BLOCK_SIZE_K=128,GROUP_SIZE_M=$1,num_stages=5,use_tma_store=1,pingpong=1"
  echo "$S,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,GROUP_SIZE_M=$1,num_stages=5,pingpong=1"
  echo "$S,BLOCK_SIZE_N=128,BLOCK_SIZE_K=128,GROUP_SIZE_M=$1,num_stages=6,pingpong=1"
}
SHAPES=("llama4-scout gate_up 4096 8" "llama4-scout down 4096 8" "deepseek-v3 gate_up 4096 32" "deepseek-v3 down 4096 16"
        "qwen3-30b-a3b gate_up 4096 8" "qwen3-30b-a3b down 4096 32" "olmoe-1b-7b gate_up 4096 32"
        "gpt-oss-20b gate_up 4096 8" "mixtral-8x7b down 4096 32" "llama4-scout down 16384 32")
args() { set -- $1; A=(--mode dw --model $1 --gemm $2 --tokens $3); mapfile -t C < <(configs $4); for c in "${C[@]}"; do A+=(--config "$c"); done; }
# correctness first (in the background), while every shape's configs compile in parallel processes
timeout 400 python3 -m pytest -m gpu tests/test_gpu.py -k warp_specialized_dw -q 2>&1 | tail -15 > $OUT/pytest_dw.txt &
for s in "${SHAPES[@]}"; do args "$s"; timeout 400 python3 benchmarks/ncu_probe.py "${A[@]}" --launches 1 > /dev/null 2>&1 & done
wait
cat $OUT/pytest_dw.txt
for s in "${SHAPES[@]}"; do args "$s"; timeout 100 python3 benchmarks/ncu_probe.py "${A[@]}" --rounds 5 --torch 2>&1 | grep -v Warning; done > $OUT/timings.txt
cat $OUT/timings.txt
