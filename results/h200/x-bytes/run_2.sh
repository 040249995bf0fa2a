#!/bin/bash
# Call 2 (x-bytes, entry 65): the bytes behind call 1's clocks. Nsight Compute over one launch of our suite config of
# llama4-scout's forward gate_up at 4096 tokens with balanced routing (every expert 256 rows), as shipped and with
# GEMMTUNE_X_HALF=1 (x_half.patch, applied here), and over the torch loop's 16 per-expert GEMMs of the same problem;
# clocks not fixed, so the counts compare, not the durations. Prediction: cuBLAS moves about as few L2 bytes per flop
# as the X_HALF variant (a third fewer than ours), and fewer instructions.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
git apply results/h200/x-bytes/x_half.patch || { echo "patch did not apply"; exit 1; }
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
CFG="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_warps=8,use_tma_load_w=1,GROUP_SIZE_M=8,num_stages=4,TAIL_ROWS=32,warp_specialize=1,use_tma_load_x=1,pregather=1"
PROBLEM="--model llama4-scout --gemm gate_up --tokens 4096 --mode fwd --routing balanced"
METRICS="--metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,lts__t_sector_hit_rate.pct,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,launch__cluster_dim_x,launch__cluster_dim_y,launch__grid_size"
for v in 0 1; do
  GEMMTUNE_X_HALF=$v timeout 120 ncu --clock-control none -k regex:grouped_gemm --launch-skip 1 --launch-count 1 $METRICS \
    python3 benchmarks/ncu_probe.py $PROBLEM --config "$CFG" --launches 2 > "$OUT/ncu_ours_x_half$v.txt" 2>&1
  echo "ours X_HALF=$v rc $?"
done
timeout 240 ncu --clock-control none -k regex:nvjet --launch-count 16 $METRICS \
  python3 benchmarks/ncu_probe.py $PROBLEM --config "$CFG" --launches 1 --torch > "$OUT/ncu_torch_loop.txt" 2>&1
echo "torch loop rc $?"
grep -E "^  [a-z_]|duration|per_second|hmma|dram__bytes|hit_rate|lts__t_bytes|wavefronts|inst_executed|cluster_dim|grid_size" \
  "$OUT"/ncu_*.txt | cut -c1-180 | head -150
echo "all done at $(( $(date +%s) - T0 )) s"
