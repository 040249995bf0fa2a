#!/bin/bash
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
S="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,pregather=1,warp_specialize=1,swap_ab=1,num_stages=4"
P="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,pregather=1,num_stages=4"
probe() { timeout 150 python3 benchmarks/ncu_probe.py --rounds 4 --mode fwd "$@" 2>&1 | grep -v Warning; }
{
for t in 1024 3072 4096 3968; do probe --model mixtral-8x7b --gemm gate_up --tokens $t --routing balanced --config "$P" --config "$S"; done
GEMMTUNE_SWAP_CHUNK=16 probe --model mixtral-8x7b --gemm gate_up --tokens 4096 --config "$P,half_tail=1" --config "$S"
} > $OUT/chunks.txt 2>&1
grep -v "^==" $OUT/chunks.txt
prof() { timeout 150 ncu --clock-control none -k regex:grouped_gemm_forward --launch-skip 2 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis python3 benchmarks/ncu_probe.py --mode fwd --model mixtral-8x7b --gemm gate_up --tokens 4096 --launches 3 "$@" 2>&1; }

prof --config "$S" > $OUT/ncu_swap.txt
prof --config "$P,half_tail=1" > $OUT/ncu_plain.txt
grep -E "Duration|Throughput|Shared|Pipe|Issue|L2|DRAM" $OUT/ncu_swap.txt | head -40
echo ----
grep -E "Duration|Throughput|Shared|Pipe|Issue|L2|DRAM" $OUT/ncu_plain.txt | head -40
