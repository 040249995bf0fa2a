#!/bin/bash
# Call 6 (pair-grouped, entry 65): the tail's carrier alternated. alternate_tail.patch (on 4c6aa8b; trace.patch and,
# with GEMMTUNE_ALTERNATE_TAIL=1 when the kernels are imported, a carried tail goes to block (tailed experts before
# this one) mod blocks, so an expert's blocks take turns). llama4-scout's gate_up at 4096 tokens, uniform routing:
# trace_probe.py (start gaps of an expert's two blocks, 128x256 tail32 static), tail_probe.py --set static (checked,
# 6 interleaved rounds; then 4 s each sustained), and Nsight Compute's L2 read sectors, all with the alternation on.
# Prediction: the gaps swing between about 0 and one tail's delay (14 us) instead of growing; the carried tail's
# reads fall from 222 M sectors toward 190 M and it runs at least level with the suite config (0.86x without).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
git apply results/h200/pair-grouped/alternate_tail.patch || { echo "patch did not apply"; exit 1; }
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks GEMMTUNE_ALTERNATE_TAIL=1
C="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=4,TAIL_ROWS=32,use_tma_load_w=1,use_tma_load_x=1,pregather=1,warp_specialize=1"
timeout 120 python3 results/h200/pair-grouped/trace_probe.py --routing uniform --config "$C" > "$OUT/alt_trace.txt" 2>&1
echo "trace rc $?"; grep -v "^  \[" "$OUT/alt_trace.txt" | cut -c1-160
P="results/h200/pair-grouped/tail_probe.py --set static"
timeout 200 python3 $P --rounds 6 > "$OUT/alt_interleaved.txt" 2>&1
echo "interleaved rc $?"; grep -v "^  \[" "$OUT/alt_interleaved.txt" | cut -c1-180
timeout 150 python3 $P --sustained 4 > "$OUT/alt_sustained.txt" 2>&1
echo "sustained rc $?"; cat "$OUT/alt_sustained.txt"
M="l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,gpu__time_duration.sum"
timeout 200 ncu --clock-control none -k "regex:grouped_gemm" --metrics $M python3 $P --launches 2 > "$OUT/alt_ncu.txt" 2>&1
echo "ncu rc $?"; grep -E "lts__t_sectors|dram__|duration" "$OUT/alt_ncu.txt" | cut -c1-150
echo "all done at $(( $(date +%s) - T0 )) s"
