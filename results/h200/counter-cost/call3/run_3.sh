#!/bin/bash
# Device call 3 (EXPERIMENT debug): where the two-sided counter hangs. Check-only launches with short timeouts.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
mkdir -p $OUT/call3
G="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=3,use_tma_load_w=1,warp_specialize=1,dynamic_schedule=1"
P="$G,use_tma_load_x=1,pregather=1"
run() { echo "## $*" | tee -a $OUT/call3/debug.txt; timeout 45 python3 benchmarks/ncu_probe.py "$@" --check --launches 2 2>&1 | tail -2 | tee -a $OUT/call3/debug.txt; echo "rc=$?" | tee -a $OUT/call3/debug.txt; }
GEMMTUNE_SIDE=1 run --model mixtral-8x7b --gemm gate_up --tokens 4096 --config "$P"
GEMMTUNE_SIDE=1 run --model mixtral-8x7b --gemm gate_up --tokens 4096 --config "$G"
GEMMTUNE_SIDE=1 run --model deepseek-v3 --gemm gate_up --tokens 4096 --config "$P"
GEMMTUNE_SIDE=1 GEMMTUNE_CHUNK=1 run --model mixtral-8x7b --gemm gate_up --tokens 4096 --config "$P"
GEMMTUNE_SIDE=0 run --model mixtral-8x7b --gemm gate_up --tokens 4096 --config "$P"
cp ws_run.sh $OUT/call3/run_3.sh
cd $OUT && tar czf call3.tgz call3 && rm -rf call3
