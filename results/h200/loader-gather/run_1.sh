#!/bin/bash
# Device call 1 (loader gather): the Gluon forward kernel's loader gathers X's rows itself (permute_x without
# pregather) — GPU tests of the warp-specialized forward (both X routes), then each gate_up shape timed in one
# process: the suite's config, the Gluon kernel with pregather, and with the loader's gather.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
timeout 280 python3 -m pytest -q -m gpu tests/test_gpu.py -k "warp_specialized_forward or merged_tail" -rs 2>&1 | tail -15 | tee $OUT/pytest_gpu_fwd_ws.txt
B="GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,BLOCK_SIZE_K=64"
P="$B,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256"
G="$P,warp_specialize=1"
L="$B,BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,warp_specialize=1,TAIL_ROWS=32,num_stages=4"
X="use_tma_load_x=1,pregather=1"
cd benchmarks
r() { echo "=== $1"; shift; timeout 100 python3 ncu_probe.py --torch --check --rounds 6 "$@" 2>&1 | grep -v Warning; }
{
r mixtral_gate_up_4096 --model mixtral-8x7b --gemm gate_up --tokens 4096 --config "$P,$X,num_stages=3,half_tail=1" \
  --config "$G,$X,num_stages=4" --config "$G,num_stages=4" --config "$G,num_stages=3,use_tma_store=1"
r deepseek_gate_up_16384 --model deepseek-v3 --gemm gate_up --tokens 16384 --config "$P,$X,num_stages=3" \
  --config "$G,$X,num_stages=4" --config "$G,num_stages=4" --config "$G,num_stages=3,use_tma_store=1" --config "$G,num_stages=4,TAIL_ROWS=32"
r llama4_gate_up_4096 --model llama4-scout --gemm gate_up --tokens 4096 --config "$L,$X" --config "$L" --config "$G,num_stages=4"
r qwen3_gate_up_4096 --model qwen3-30b-a3b --gemm gate_up --tokens 4096 --config "$P,num_stages=4" \
  --config "$G,$X,num_stages=4" --config "$G,num_stages=4" --config "$G,num_stages=3,use_tma_store=1"
r gpt_oss_gate_up_16384 --model gpt-oss-20b --gemm gate_up --tokens 16384 --config "$P,$X,num_stages=3,half_tail=1" \
  --config "$G,$X,num_stages=4" --config "$G,num_stages=4"
} 2>&1 | tee $OUT/gather_probe.txt
