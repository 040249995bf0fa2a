#!/bin/bash
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
# the three cases that ran out of memory beside the parallel compiles of the first call, alone
timeout 200 python3 -m pytest -m gpu tests/test_gpu.py -k "warp_specialized_dw and E=256" -q 2>&1 | tail -4 > $OUT/pytest_dw_alone.txt
cat $OUT/pytest_dw_alone.txt
S="BLOCK_SIZE_M=64,num_warps=8,use_tma_load_x=1,use_tma_load_dy=1,pregather=1,warp_specialize=1,GROUP_SIZE_M=8,use_tma_store=1"
SUITE="$S,BLOCK_SIZE_N=128,BLOCK_SIZE_K=256,num_stages=3"
PP="$S,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_stages=4,pingpong=1"
P=(--mode dw --model llama4-scout --gemm gate_up --tokens 4096)
for name in suite pingpong; do
  [ $name = suite ] && C=$SUITE || C=$PP
  timeout 200 ncu --clock-control none -k regex:grouped_gemm_dW --launch-skip 1 --launch-count 1 --set full \
    -o $OUT/ncu_$name python3 benchmarks/ncu_probe.py "${P[@]}" --config "$C" --launches 2 > $OUT/ncu_${name}_log.txt 2>&1
  ncu -i $OUT/ncu_$name.ncu-rep --page details > $OUT/ncu_${name}_details.txt 2>&1
  ncu -i $OUT/ncu_$name.ncu-rep --page source --csv --print-source sass > $OUT/ncu_${name}_sass.csv 2>&1
  ls -la $OUT/ncu_$name.ncu-rep
done
grep -E "Duration|SM Frequency|DRAM Throughput|Compute \(SM\)|L2 Hit|Registers|Theoretical Occ|One or More|No Eligible|Issued Warp|dram__|Warp Cycles Per Issued" $OUT/ncu_*_details.txt | head -60
rm -f $OUT/*.ncu-rep
