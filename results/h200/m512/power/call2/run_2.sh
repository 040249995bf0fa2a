#!/bin/bash
# Call 2 (docs/perf-notes.md entry 48): mixtral-8x7b's forward at 512 tokens under sustained load, SM clock and
# power sampled (benchmarks/power_probe.py), and with zero operands (inputs_probe.py).
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call2; mkdir -p $D
cp results/h200/m512/power/{run_2.sh,inputs_probe.py} $D/; git rev-parse HEAD > $D/commit.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
B="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=4,TAIL_ROWS=32,use_tma_load_w=1,use_tma_load_x=1,warp_specialize=1"
timeout 200 python3 results/h200/m512/power/inputs_probe.py 6 > $D/inputs_probe.txt 2>&1; echo "rc $?" >> $D/inputs_probe.txt
timeout 120 python3 benchmarks/power_probe.py --model mixtral-8x7b --gemm gate_up --tokens 512 --seconds 4 \
  --config "$B,pregather=1" > $D/power_gate_up.txt 2>&1; echo "rc $?" >> $D/power_gate_up.txt
timeout 120 python3 benchmarks/power_probe.py --model mixtral-8x7b --gemm down --tokens 512 --seconds 4 \
  --config "$B" > $D/power_down.txt 2>&1; echo "rc $?" >> $D/power_down.txt
cat $D/inputs_probe.txt $D/power_gate_up.txt $D/power_down.txt
