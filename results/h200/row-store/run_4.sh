#!/bin/bash
# Device call 4: Nsight Compute on the plain forward kernel against the Gluon one (4 stages without a TMA
# store, 3 with), mixtral-8x7b gate_up at 4096 tokens, balanced routing (no ragged rows): where the Gluon
# kernel's MMA warps wait.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
B="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,pregather=1"
P=(--model mixtral-8x7b --gemm gate_up --tokens 4096 --routing balanced)
python3 benchmarks/ncu_probe.py "${P[@]}" --check --rounds 6 --torch --config "$B,num_stages=4" \
  --config "$B,num_stages=4,warp_specialize=1" --config "$B,num_stages=3,warp_specialize=1,use_tma_store=1" \
  2>&1 | grep -v Warning | tee $OUT/timings.txt
for name in plain gluon_s4 gluon_s3_store; do
  case $name in plain) C="$B,num_stages=4";; gluon_s4) C="$B,num_stages=4,warp_specialize=1";;
    gluon_s3_store) C="$B,num_stages=3,warp_specialize=1,use_tma_store=1";; esac
  timeout 200 ncu --clock-control none -k regex:grouped_gemm --launch-skip 1 --launch-count 1 --set full \
    -o /tmp/ncu_$name python3 benchmarks/ncu_probe.py "${P[@]}" --config "$C" --launches 2 > /tmp/ncu_${name}_log.txt 2>&1
  ncu -i /tmp/ncu_$name.ncu-rep --page details > $OUT/ncu_${name}_details.txt 2>&1
  ncu -i /tmp/ncu_$name.ncu-rep --page source --csv --print-source sass > /tmp/ncu_${name}_sass.csv 2>&1
done
grep -E "^  [a-z_]|Duration|SM Frequency|Elapsed Cycles|SM Active Cycles|highest-utilized|Issue Slots Busy|L2 Hit|DRAM Throughput|Warp Cycles Per Issued|No Eligible" $OUT/ncu_*_details.txt | cut -c1-160
python3 ws_stalls.py /tmp/ncu_plain_sass.csv /tmp/ncu_gluon_s4_sass.csv /tmp/ncu_gluon_s3_store_sass.csv 2>&1 | tee $OUT/ncu_stalls.txt
head -c 600 /tmp/ncu_gluon_s4_sass.csv
