#!/bin/bash
# Call 2 (tail-operand, docs/perf-notes.md entry 60): split_tail checked on the GPU, then timed against the
# shipped merged tail on mixtral-8x7b's dX gate_up at 4096 tokens (the suite's routing and 1032 rows per expert),
# and Nsight Compute's DRAM and L2 counts of the split tail at 1032 rows.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
F=results/h200/tail-operand
D=$OUT/call2; mkdir -p $D
cp $F/run_2.sh $D/; git rev-parse HEAD > $D/commit.txt; git status --short | grep -v "^??" > $D/tree.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,temperature.gpu --format=csv > $D/device.txt
timeout 240 python3 -m pytest -q -m gpu tests/test_gpu.py -k split_tail -x > $D/pytest_split_tail.txt 2>&1
echo "rc $?" >> $D/pytest_split_tail.txt; tail -5 $D/pytest_split_tail.txt
export PYTHONPATH=benchmarks
DX="BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,GROUP_SIZE_M=8,num_warps=8,num_stages=3,use_tma_load_dy=1,use_tma_load_w=1,warp_specialize=1,dynamic_schedule=1"
python3 -c "import numpy as np; np.save('/tmp/rows_1032.npy', np.array([1032]*8))"
timeout 150 python3 benchmarks/ncu_probe.py --model mixtral-8x7b --gemm gate_up --mode dx --tokens 4096 --rounds 4 \
  --check --torch --config "$DX,TAIL_ROWS=32" --config "$DX,TAIL_ROWS=32,split_tail=1" --config "$DX,TAIL_ROWS=16" \
  --config "$DX,TAIL_ROWS=16,split_tail=1" > $D/dx_gate_up_4096.txt 2>&1; echo "rc $?" >> $D/dx_gate_up_4096.txt
cat $D/dx_gate_up_4096.txt
timeout 120 python3 benchmarks/ncu_probe.py --model mixtral-8x7b --gemm gate_up --mode dx --tokens 4128 \
  --routing /tmp/rows_1032.npy --rounds 4 --check --torch --config "$DX,TAIL_ROWS=16" \
  --config "$DX,TAIL_ROWS=16,split_tail=1" > $D/dx_gate_up_1032.txt 2>&1; echo "rc $?" >> $D/dx_gate_up_1032.txt
cat $D/dx_gate_up_1032.txt
METRICS="dram__bytes_read.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__cycles_elapsed.avg.per_second"
for cfg in "$DX,TAIL_ROWS=16" "$DX,TAIL_ROWS=16,split_tail=1"; do
  echo "== rows 1032 $cfg" >> $D/ncu.txt
  timeout 90 ncu --clock-control none -k regex:grouped_gemm --launch-skip 1 --launch-count 1 --metrics $METRICS \
    python3 benchmarks/ncu_probe.py --model mixtral-8x7b --gemm gate_up --mode dx --tokens 4128 \
    --routing /tmp/rows_1032.npy --config "$cfg" --launches 2 2>&1 | grep -E "dram__|lts__|gpu__time|tensor_op|per_second|rror" >> $D/ncu.txt
done
cat $D/ncu.txt
