#!/bin/bash
# Call 7 (pair-grouped, entry 65): an expert's two blocks coupled at every tile. pair_sync.patch (on a67db6e;
# trace.patch and, with GEMMTUNE_PAIR_SYNC=1 at a launch on the static schedule, the loaders of programs p and p ^ 1
# meet before each tile through progress flags in global memory). sync_probe.py on llama4-scout's gate_up at 4096
# tokens, uniform routing: checked, 6 interleaved rounds; 4 s each sustained; Nsight Compute's L2 read sectors; then
# trace_probe.py's start gaps with the coupling on. Prediction: coupled, split_tail's blocks start within a fraction of
# a us and read about aligned routing's 170 M sectors (210 M without), at a higher clock, and run 1.02-1.05x the suite
# config; the carried tail gains less (its blocks still part within each tile).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
git apply results/h200/pair-grouped/pair_sync.patch || { echo "patch did not apply"; exit 1; }
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P=results/h200/pair-grouped/sync_probe.py
timeout 200 python3 $P --rounds 6 > "$OUT/sync_interleaved.txt" 2>&1
echo "interleaved rc $?"; grep -v "^  \[" "$OUT/sync_interleaved.txt" | cut -c1-180
timeout 150 python3 $P --sustained 4 > "$OUT/sync_sustained.txt" 2>&1
echo "sustained rc $?"; cat "$OUT/sync_sustained.txt"
M="l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,gpu__time_duration.sum"
timeout 200 ncu --clock-control none -k "regex:grouped_gemm" --metrics $M python3 $P --launches 2 > "$OUT/sync_ncu.txt" 2>&1
echo "ncu rc $?"; grep -E "lts__t_sectors|dram__|duration" "$OUT/sync_ncu.txt" | cut -c1-150
C="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=4,TAIL_ROWS=32,use_tma_load_w=1,use_tma_load_x=1,pregather=1,warp_specialize=1"
GEMMTUNE_PAIR_SYNC=1 timeout 120 python3 results/h200/pair-grouped/trace_probe.py --routing uniform --config "$C" \
  --config "$C,split_tail=1" > "$OUT/sync_trace.txt" 2>&1
echo "trace rc $?"; grep -v "^  \[" "$OUT/sync_trace.txt" | grep -E "tiles|all pairs" | cut -c1-160
echo "all done at $(( $(date +%s) - T0 )) s"
