#!/bin/bash
# Call 1 (tail-operand, docs/perf-notes.md entry 60): the merged tail's wgmmas in a K loop alone (wgmma_probe.py),
# the dX gate_up tile's tail in one wave (single_wave_probe.py), and Nsight Compute's DRAM and L2 counts at 1024
# and 1032 rows per expert.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
F=results/h200/tail-operand
D=$OUT/call1; mkdir -p $D
cp $F/{run_1.sh,wgmma_probe.py,single_wave_probe.py} $D/; git rev-parse HEAD > $D/commit.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,temperature.gpu --format=csv > $D/device.txt
timeout 200 python3 $F/wgmma_probe.py > $D/wgmma_probe.txt 2>&1; echo "rc $?" >> $D/wgmma_probe.txt
cat $D/wgmma_probe.txt
timeout 220 python3 $F/single_wave_probe.py 3 > $D/single_wave_probe.txt 2>&1; echo "rc $?" >> $D/single_wave_probe.txt
cat $D/single_wave_probe.txt
# Nsight Compute, one launch each, clocks not fixed: DRAM read bytes, L2 hit rate, tensor pipe
TILE="BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,GROUP_SIZE_M=8,num_warps=8,num_stages=3,use_tma_load_dy=1,use_tma_load_w=1,warp_specialize=1,dynamic_schedule=1"
python3 -c "import numpy as np; [np.save(f'/tmp/rows_{r}.npy', np.array([r]*8)) for r in (1024, 1032)]"
METRICS="dram__bytes_read.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__cycles_elapsed.avg.per_second"
for spec in "1024|$TILE,TAIL_ROWS=16" "1032|$TILE,TAIL_ROWS=16" "1032|$TILE"; do
  rows=${spec%%|*}; cfg=${spec#*|}
  echo "== rows $rows $cfg" >> $D/ncu.txt
  timeout 90 ncu --clock-control none -k regex:grouped_gemm --launch-skip 1 --launch-count 1 --metrics $METRICS \
    python3 benchmarks/ncu_probe.py --model mixtral-8x7b --gemm gate_up --mode dx --tokens $((rows * 4)) \
    --routing /tmp/rows_$rows.npy --config "$cfg" --launches 2 2>&1 | grep -E "dram__|lts__|gpu__time|tensor_op|per_second|Error|error" >> $D/ncu.txt
done
cat $D/ncu.txt
