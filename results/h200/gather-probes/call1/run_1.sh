#!/bin/bash
# Device call 1 (gather fence): the loader-gather Gluon forward with its proxy fence where it was (the MMA
# warps, after every wait), with none, and on the loader's side (cp.async.wait_group, fence, one arrive one
# step late); each variant in its own process beside the same kernel reading a pregathered X by TMA.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
B="GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,BLOCK_SIZE_K=64,num_stages=4,warp_specialize=1"
G="$B,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256"
L="$B,BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,TAIL_ROWS=32"
X="use_tma_load_x=1,pregather=1"
cd benchmarks
r() { name=$1; shift; for f in consumer none producer; do echo "=== $name fence=$f"; GEMMTUNE_GATHER_FENCE=$f timeout 75 python3 ncu_probe.py --check --rounds 6 "$@" 2>&1 | grep -v Warning; done; }
{
r gpt_oss_gate_up_16384 --model gpt-oss-20b --gemm gate_up --tokens 16384 --config "$G,$X" --config "$G" --config "$L,$X" --config "$L"
r llama4_gate_up_4096 --model llama4-scout --gemm gate_up --tokens 4096 --config "$L,$X" --config "$L"
r mixtral_gate_up_4096 --model mixtral-8x7b --gemm gate_up --tokens 4096 --config "$G,$X" --config "$G"
} 2>&1 | tee $OUT/fence_probe.txt
