#!/bin/bash
# Device call 7: dW's Gluon kernel with its register stores in 16-byte rows: GPU tests, then the suite's dW
# config (3 stages, TMA store) against 4 stages storing from registers, one process per shape.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -k "warp_specialized_dw or (predicted and dw)" -rs 2>&1 | tail -6 | tee $OUT/pytest_gpu_dw.txt
B="BLOCK_SIZE_M=64,BLOCK_SIZE_N=128,BLOCK_SIZE_K=256,num_warps=8,use_tma_load_dy=1,use_tma_load_x=1,pregather=1,warp_specialize=1"
cd benchmarks
r() {  # name, GROUP_SIZE_M, then problem arguments
  name=$1; g=$2; shift 2
  echo "=== $name"
  timeout 100 python3 ncu_probe.py --mode dw --rounds 6 --torch --check "$@" --config "$B,GROUP_SIZE_M=$g,num_stages=3,use_tma_store=1" \
    --config "$B,GROUP_SIZE_M=$g,num_stages=4" --config "$B,GROUP_SIZE_M=$g,num_stages=3" 2>&1 | grep -v Warning
}
{
r mixtral_down_4096 32 --model mixtral-8x7b --gemm down --tokens 4096
r llama4_gate_up_4096 8 --model llama4-scout --gemm gate_up --tokens 4096
r llama4_down_16384 32 --model llama4-scout --gemm down --tokens 16384
r mixtral_gate_up_4096 8 --model mixtral-8x7b --gemm gate_up --tokens 4096
r deepseek_gate_up_4096 32 --model deepseek-v3 --gemm gate_up --tokens 4096
r qwen3_gate_up_4096 8 --model qwen3-30b-a3b --gemm gate_up --tokens 4096
} 2>&1 | tee $OUT/dw_stages.txt
