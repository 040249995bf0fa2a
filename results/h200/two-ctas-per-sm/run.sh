#!/bin/bash
# Two CTAs per SM: the persistent grid at 2 x 132 programs (GEMMTUNE_NUM_SMS=264) with tiles whose registers
# and shared memory let two co-reside, against the suite's config at 132 programs. Torch baselines in both
# processes, so each process's ratios are its own.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
C="GROUP_SIZE_M=8,use_tma_load_w=1,use_tma_load_x=1,pregather=1"
probe() { echo "== $*"; python3 benchmarks/ncu_probe.py --rounds 6 --torch "$@" 2>&1 | grep -v Warning; }
two() { GEMMTUNE_NUM_SMS=264 probe "$@"; }
{
for T in 4096 16384; do
probe --mode fwd --model mixtral-8x7b --gemm gate_up --tokens $T --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=8,num_stages=4,$C,half_tail=1" \
  --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_warps=4,num_stages=3,$C"
two --mode fwd --model mixtral-8x7b --gemm gate_up --tokens $T --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_warps=4,num_stages=3,$C" \
  --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_warps=4,num_stages=3,$C,half_tail=1" \
  --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_warps=8,num_stages=3,$C" \
  --config "BLOCK_SIZE_M=64,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=4,num_stages=2,$C"
done
probe --mode fwd --model llama4-scout --gemm gate_up --tokens 16384 --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=8,num_stages=3,$C"
two --mode fwd --model llama4-scout --gemm gate_up --tokens 16384 --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_warps=4,num_stages=3,$C" \
  --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_warps=4,num_stages=3,$C,half_tail=1"
D="GROUP_SIZE_M=8,use_tma_load_dy=1,use_tma_load_w=1"
probe --mode dx --model mixtral-8x7b --gemm gate_up --tokens 4096 --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_warps=8,num_stages=3,$D,half_tail=1"
two --mode dx --model mixtral-8x7b --gemm gate_up --tokens 4096 --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=128,num_warps=4,num_stages=3,$D" \
  --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=128,num_warps=4,num_stages=3,$D,half_tail=1"
} > $OUT/timings.txt 2>&1
cat $OUT/timings.txt | grep -v "^=="
