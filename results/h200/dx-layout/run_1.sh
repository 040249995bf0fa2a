#!/bin/bash
# Call 1 (dx-layout, docs/perf-notes.md entry 62): dX against the forward kernel on Wᵀ, the same product with W read
# along the reduction, on the suite's four dX rows below or at the torch loop (their best configs, README table).
# One process per shape (layout_probe.py: checked, 6 interleaved rounds beside the torch baselines); then Nsight
# Compute over one launch of each kernel on mixtral-8x7b's down GEMM at 16384 tokens.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P=results/h200/dx-layout/layout_probe.py
D="BLOCK_SIZE_N=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_dy=1,use_tma_load_w=1,warp_specialize=1"
DOWN16="BLOCK_SIZE_M=128,BLOCK_SIZE_K=256,num_stages=3,use_tma_store=1,pregather=1,dynamic_schedule=1,$D"
DOWN4="BLOCK_SIZE_M=128,BLOCK_SIZE_K=256,num_stages=4,TAIL_ROWS=32,pregather=1,dynamic_schedule=1,$D"
GATE4="BLOCK_SIZE_M=128,BLOCK_SIZE_K=256,num_stages=3,TAIL_ROWS=32,split_tail=1,$D"
run() {  # output-name model:gemm:tokens:config
  timeout 140 python3 $P --shape "$2" 2>&1 | grep -v Warning > "$OUT/$1.txt"
  cut -c1-150 "$OUT/$1.txt" | tail -8
  echo "$1 done at $(( $(date +%s) - T0 )) s"
}
run mixtral_down_16384 "mixtral-8x7b:down:16384:$DOWN16"
run llama4_down_16384 "llama4-scout:down:16384:$DOWN4"
run mixtral_down_4096 "mixtral-8x7b:down:4096:$DOWN4"
run mixtral_gate_up_4096 "mixtral-8x7b:gate_up:4096:$GATE4"
SECTIONS="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section WarpStateStats"
METRICS="--metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__sectors_read.sum,smsp__inst_executed.sum,sm__cycles_elapsed.avg.per_second"
timeout 170 ncu --clock-control none -k regex:grouped_gemm --launch-skip 1 --launch-count 3 $SECTIONS $METRICS \
  python3 $P --shape "mixtral-8x7b:down:16384:$DOWN16" --launches 2 > "$OUT/ncu_mixtral_down_16384.txt" 2>&1
grep -E "grouped_gemm|Duration|hmma|dram__bytes|lts__t_bytes|SM Frequency|inst_executed" "$OUT/ncu_mixtral_down_16384.txt" | head -40
echo "all done at $(( $(date +%s) - T0 )) s"
