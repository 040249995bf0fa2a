#!/bin/bash
# Device call 5 (half_tail on deepseek-v3): the plain forward with half_tail ran 1.08-1.39x slower than without on
# deepseek-v3's gate_up at 16384 tokens in call 2's sweep (median of 8 knob pairs 1.26x), though it does less
# MMA work. Time the pair in one process, then Nsight Compute on one launch of each.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
A="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=3,use_tma_load_w=1,use_tma_load_x=1,pregather=1"
P=(--model deepseek-v3 --gemm gate_up --tokens 16384)
timeout 200 python3 benchmarks/ncu_probe.py "${P[@]}" --check --rounds 4 --config "$A" --config "$A,half_tail=1" \
  --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=3,use_tma_load_w=1,warp_specialize=1" \
  2>&1 | tee $OUT/probe_deepseek_16384.txt
for name in plain half_tail; do
  C="$A"; [ $name = half_tail ] && C="$A,half_tail=1"
  timeout 150 ncu --clock-control none -k regex:grouped_gemm --launch-skip 1 --launch-count 1 --set full \
    -o /tmp/ncu_$name python3 benchmarks/ncu_probe.py "${P[@]}" --config "$C" --launches 2 > /tmp/ncu_${name}_log.txt 2>&1
  tail -2 /tmp/ncu_${name}_log.txt
  ncu -i /tmp/ncu_$name.ncu-rep --page details > $OUT/ncu_${name}_details.txt 2>&1
  ncu -i /tmp/ncu_$name.ncu-rep --page source --csv --print-source sass > /tmp/ncu_${name}_sass.csv 2>&1
done
grep -E "^  [a-z_]|Duration|SM Frequency|Elapsed Cycles|SM Active Cycles|Issue Slots Busy|L2 Hit|DRAM Throughput|Warp Cycles Per Issued|No Eligible|Mem Busy|Registers Per|Waves Per SM|Shared Memory Configuration Size|Dynamic Shared" $OUT/ncu_*_details.txt | cut -c1-170
python3 results/h200/gather-probes/ws_stalls.py /tmp/ncu_plain_sass.csv /tmp/ncu_half_tail_sass.csv > $OUT/ncu_stalls.txt 2>&1
grep -E "^###|^by reason" $OUT/ncu_stalls.txt
