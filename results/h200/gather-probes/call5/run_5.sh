#!/bin/bash
# Device call 5 (two wgmma groups in flight): the Gluon forward's MMA warps keep one async wgmma group in
# flight (as shipped) or two (a slot is released one step later); X pregathered and gathered by the loader.
# One process per (setting, shape), each against the same kernel's other X route.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
B="GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,BLOCK_SIZE_K=64,num_stages=4,warp_specialize=1"
G="$B,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256"
L="$B,BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,TAIL_ROWS=32"
X="use_tma_load_x=1,pregather=1"
P="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=3,use_tma_load_w=1,$X"
cd benchmarks
r() { name=$1; shift; for f in 1 2; do echo "=== $name wgmma groups in flight=$f"; GEMMTUNE_WGMMA_IN_FLIGHT=$f timeout 80 python3 ncu_probe.py --check --rounds 6 "$@" 2>&1 | grep -v Warning; done; }
{
r gpt_oss_gate_up_16384 --model gpt-oss-20b --gemm gate_up --tokens 16384 --config "$P" --config "$G,$X" --config "$G" --config "$L,$X"
r llama4_gate_up_4096 --model llama4-scout --gemm gate_up --tokens 4096 --config "$P" --config "$L,$X" --config "$L"
r mixtral_gate_up_4096 --model mixtral-8x7b --gemm gate_up --tokens 4096 --config "$P" --config "$G,$X" --config "$G"
} 2>&1 | tee $OUT/in_flight_probe.txt
