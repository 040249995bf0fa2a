#!/bin/bash
# Call 2: Nsight Compute over one launch of our suite config of mixtral-8x7b's gate_up forward at 4096 tokens
# (the Gluon kernel, as shipped) and over the torch loop's eight per-expert GEMMs of the same problem: bytes,
# instructions, tensor pipe and clock, to set the instruction counts of call 1 beside cuBLAS's. Shipped tree.
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git diff --stat -- gemmtune; } > "$OUT/device.txt"
export PYTHONPATH=benchmarks
CFG="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=8,use_tma_load_w=1,GROUP_SIZE_M=8,num_stages=4,TAIL_ROWS=32,warp_specialize=1,use_tma_load_x=1,pregather=1,dynamic_schedule=1"
PROBLEM="--model mixtral-8x7b --gemm gate_up --tokens 4096 --mode fwd"
METRICS="--metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_elapsed.max,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,lts__t_bytes.sum,smsp__inst_executed.sum,launch__cluster_dim_x,launch__cluster_dim_y,launch__grid_size,launch__block_size"
timeout 120 ncu --clock-control none -k regex:grouped_gemm --launch-skip 1 --launch-count 1 $METRICS \
  python3 benchmarks/ncu_probe.py $PROBLEM --config "$CFG" --launches 2 > "$OUT/ncu_ours.txt" 2>&1
timeout 200 ncu --clock-control none -k regex:nvjet --launch-count 8 $METRICS \
  python3 benchmarks/ncu_probe.py $PROBLEM --config "$CFG" --launches 1 --torch > "$OUT/ncu_torch_loop.txt" 2>&1
grep -E "nvjet|grouped_gemm|duration|per_second|hmma|dram__bytes|hit_rate|lts__t_bytes|inst_executed|cluster_dim|grid_size" "$OUT/ncu_ours.txt" "$OUT/ncu_torch_loop.txt" | cut -c1-200
