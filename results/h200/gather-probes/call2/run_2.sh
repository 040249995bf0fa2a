#!/bin/bash
# Device call 2 (gather profile): Nsight Compute on the loader-gather Gluon forward against the same kernel
# reading a pregathered X by TMA: llama4-scout gate_up at 4096 tokens (256x128, merged tails; gather 0.86x in
# call 1) and mixtral-8x7b gate_up at 4096 (128x256; 0.95x): where the MMA and loader warps wait.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
B="GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,BLOCK_SIZE_K=64,num_stages=4,warp_specialize=1"
G="$B,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256"
L="$B,BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,TAIL_ROWS=32"
X="use_tma_load_x=1,pregather=1"
for name in llama4_pregather llama4_gather mixtral_pregather mixtral_gather; do
  case $name in
    llama4_pregather) P=(--model llama4-scout --gemm gate_up --tokens 4096); C="$L,$X";;
    llama4_gather) P=(--model llama4-scout --gemm gate_up --tokens 4096); C="$L";;
    mixtral_pregather) P=(--model mixtral-8x7b --gemm gate_up --tokens 4096); C="$G,$X";;
    mixtral_gather) P=(--model mixtral-8x7b --gemm gate_up --tokens 4096); C="$G";;
  esac
  timeout 200 ncu --clock-control none -k regex:grouped_gemm --launch-skip 1 --launch-count 1 --set full \
    -o /tmp/ncu_$name python3 benchmarks/ncu_probe.py "${P[@]}" --config "$C" --launches 2 > /tmp/ncu_${name}_log.txt 2>&1
  tail -3 /tmp/ncu_${name}_log.txt
  ncu -i /tmp/ncu_$name.ncu-rep --page details > $OUT/ncu_${name}_details.txt 2>&1
  ncu -i /tmp/ncu_$name.ncu-rep --page source --csv --print-source sass > /tmp/ncu_${name}_sass.csv 2>&1
done
grep -E "^  [a-z_]|Duration|SM Frequency|Elapsed Cycles|SM Active Cycles|highest-utilized|Issue Slots Busy|L2 Hit|DRAM Throughput|Warp Cycles Per Issued|No Eligible|L1/TEX Hit|Mem Busy|Max Bandwidth|Shared" $OUT/ncu_*_details.txt | cut -c1-170
python3 ws_stalls.py /tmp/ncu_*_sass.csv > $OUT/ncu_stalls.txt 2>&1
head -c 3000 $OUT/ncu_stalls.txt
