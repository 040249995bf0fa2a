#!/bin/bash
# Device call 6 (loader warps): the loader-gather Gluon forward with its gather spread over 4 loader warps
# (as shipped, 8 copies per thread per step at 128x256) or 2 (16 copies each), chosen by GEMMTUNE_GATHER_WARPS
# (loader_warps.patch). One process per setting and shape, each with the plain 128x256 3-stage pregathered
# config and the same Gluon config pregathered as references.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
B="GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,BLOCK_SIZE_K=64,num_stages=4,warp_specialize=1"
G="$B,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256"
X="use_tma_load_x=1,pregather=1"
P="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=3,use_tma_load_w=1,$X"
cd benchmarks
r() { name=$1; shift; for w in 4 2; do echo "=== $name loader warps=$w"; GEMMTUNE_GATHER_WARPS=$w timeout 90 python3 ncu_probe.py --check --rounds 6 "$@" 2>&1 | grep -v Warning; done; }
{
r gpt_oss_gate_up_16384 --model gpt-oss-20b --gemm gate_up --tokens 16384 --config "$P" --config "$G,$X" --config "$G"
r mixtral_gate_up_4096 --model mixtral-8x7b --gemm gate_up --tokens 4096 --config "$P" --config "$G,$X" --config "$G"
r deepseek_gate_up_4096 --model deepseek-v3 --gemm gate_up --tokens 4096 --config "$P" --config "$G,$X" --config "$G"
} 2>&1 | tee $OUT/loader_warps_probe.txt
