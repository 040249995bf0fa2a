#!/bin/bash
# Device call 7 (paired half tiles): call 6 again for the kernels at HEAD only (ab_old/, now with its configs/;
# call 6 found no model files there), each process timing the same configs with and without half_tail.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
F="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1"
D="BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_dy=1"
probe() {  # label, then ncu_probe arguments
  label=$1; shift
  for code in old; do
    extra=(); [ $code = old ] && extra=(env PYTHONPATH=$PWD/ab_old)
    echo "## $label, $code code" | tee -a $OUT/probes.txt
    (cd benchmarks && timeout 150 "${extra[@]}" python3 ncu_probe.py "$@" --check --rounds 4) 2>&1 | grep -v "^$" | tee -a $OUT/probes.txt
  done
}
probe "deepseek-v3 gate_up 16384" --model deepseek-v3 --gemm gate_up --tokens 16384 \
  --config "$F,num_stages=3,use_tma_load_x=1,pregather=1" --config "$F,num_stages=3,use_tma_load_x=1,pregather=1,half_tail=1"
probe "deepseek-v3 down 16384" --model deepseek-v3 --gemm down --tokens 16384 \
  --config "$F,num_stages=3,use_tma_load_x=1" --config "$F,num_stages=3,use_tma_load_x=1,half_tail=1"
probe "mixtral-8x7b gate_up 4096" --model mixtral-8x7b --gemm gate_up --tokens 4096 \
  --config "$F,num_stages=3,use_tma_load_x=1,pregather=1" --config "$F,num_stages=3,use_tma_load_x=1,pregather=1,half_tail=1"
probe "dx mixtral-8x7b gate_up 4096" --model mixtral-8x7b --gemm gate_up --tokens 4096 --mode dx \
  --config "$D,num_stages=4" --config "$D,num_stages=4,half_tail=1"
probe "dx deepseek-v3 gate_up 16384" --model deepseek-v3 --gemm gate_up --tokens 16384 --mode dx \
  --config "$D,num_stages=3" --config "$D,num_stages=3,half_tail=1"
