#!/bin/bash
# Merged tails in the plain forward kernel under balanced routing (no expert has a tail to merge).
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
B="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,pregather=1"
probe() { echo "== $*"; python3 benchmarks/ncu_probe.py --rounds 6 --mode fwd "$@" 2>&1 | grep -v Warning; }
{
probe --model mixtral-8x7b --gemm gate_up --tokens 16384 --routing balanced --config "$B,num_stages=3" --config "$B,num_stages=3,TAIL_ROWS=16"
probe --model llama4-scout --gemm gate_up --tokens 4096 --routing balanced --config "$B,num_stages=4,half_tail=1" --config "$B,num_stages=4,half_tail=1,TAIL_ROWS=16"
} > $OUT/timings_balanced.txt 2>&1
cat $OUT/timings_balanced.txt
