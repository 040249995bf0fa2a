#!/bin/bash
# Call 8 (retime-budget): SM clock and power under llama4-scout's two 4096-token GEMMs whose ratio to torch
# depends on the re-time's budget (entry 45): the suite's best config and the torch baselines, each run back
# to back for 4 s and for 0.2 s (benchmarks/power_probe.py). Code: e0522ee.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
N=8; D=$OUT/call$N; mkdir -p $D
cp ws_run.sh $D/run_$N.sh
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
F="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_warps=8,num_stages=4,TAIL_ROWS=32,use_tma_load_w=1,use_tma_load_x=1,pregather=1,warp_specialize=1,dynamic_schedule=1"
X="BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_warps=8,num_stages=3,use_tma_load_w=1,use_tma_load_dy=1,pregather=1"
for s in 4 0.2; do
  echo "== fwd gate_up 4096, --seconds $s" >> $D/power.txt
  timeout 150 python3 benchmarks/power_probe.py --model llama4-scout --gemm gate_up --tokens 4096 --mode fwd --seconds $s --config "$F" >> $D/power.txt 2>&1
  echo "== dx down 4096, --seconds $s" >> $D/power.txt
  timeout 150 python3 benchmarks/power_probe.py --model llama4-scout --gemm down --tokens 4096 --mode dx --seconds $s --config "$X" >> $D/power.txt 2>&1
done
echo "rc $?" >> $D/power.txt
tail -3 $D/power.txt
