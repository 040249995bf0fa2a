#!/bin/bash
# Device call 3 (gather profile, gpt-oss): Nsight Compute on the loader-gather Gluon forward against the
# same kernel reading a pregathered X by TMA, gpt-oss-20b gate_up at 16384 tokens (128x256; on par in call 1, where
# pregather's copy is about 5 % of the GEMM): stall reasons per instruction and the cp.async wavefronts.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
B="GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,BLOCK_SIZE_K=64,num_stages=4,warp_specialize=1"
G="$B,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256"
L="$B,BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,TAIL_ROWS=32"
X="use_tma_load_x=1,pregather=1"
for name in gptoss_pregather gptoss_gather; do
  case $name in
    gptoss_pregather) P=(--model gpt-oss-20b --gemm gate_up --tokens 16384); C="$G,$X";;
    gptoss_gather) P=(--model gpt-oss-20b --gemm gate_up --tokens 16384); C="$G";;
  esac
  timeout 200 ncu --clock-control none -k regex:grouped_gemm --launch-skip 1 --launch-count 1 --set full \
    -o /tmp/ncu_$name python3 benchmarks/ncu_probe.py "${P[@]}" --config "$C" --launches 2 > /tmp/ncu_${name}_log.txt 2>&1
  tail -3 /tmp/ncu_${name}_log.txt
  ncu -i /tmp/ncu_$name.ncu-rep --page details > $OUT/ncu_${name}_details.txt 2>&1
  ncu -i /tmp/ncu_$name.ncu-rep --page source --csv --print-source sass > /tmp/ncu_${name}_sass.csv 2>&1
done
grep -E "^  [a-z_]|Duration|SM Frequency|Elapsed Cycles|SM Active Cycles|highest-utilized|Issue Slots Busy|L2 Hit|DRAM Throughput|Warp Cycles Per Issued|No Eligible|L1/TEX Hit|Mem Busy|Max Bandwidth|Shared" $OUT/ncu_*_details.txt | cut -c1-170
python3 ws_stalls.py /tmp/ncu_*_sass.csv > $OUT/ncu_stalls.txt 2>&1
head -c 9000 $OUT/ncu_stalls.txt
