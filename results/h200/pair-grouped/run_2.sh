#!/bin/bash
# Call 2 (pair-grouped, entry 65): tail_probe.py on llama4-scout's gate_up at 4096 tokens, uniform routing: does a
# 128x256 tile keep call 1's low L2 reads and high clock when experts carry merged tails, and does split_tail (lowered
# to 80 K steps in this process) keep an expert's blocks in step? Checked, 6 interleaved rounds; 4 s each sustained;
# Nsight Compute's TMA bytes and L2 read sectors over each config's second launch.
# Prediction: the carried tail raises the 128x256 tile's L2 reads toward the 256x128 tile's; split_tail brings them
# back toward call 1's 0.75x and runs 1.02-1.04x the carried tail.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
timeout 200 python3 results/h200/pair-grouped/tail_probe.py --rounds 6 > "$OUT/tail_interleaved.txt" 2>&1
echo "interleaved rc $?"; grep -v "^  \[" "$OUT/tail_interleaved.txt" | cut -c1-180
timeout 150 python3 results/h200/pair-grouped/tail_probe.py --sustained 4 > "$OUT/tail_sustained.txt" 2>&1
echo "sustained rc $?"; cat "$OUT/tail_sustained.txt"
M="l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum"
M="$M,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum"
timeout 200 ncu --clock-control none -k "regex:grouped_gemm" --metrics $M \
  python3 results/h200/pair-grouped/tail_probe.py --launches 2 > "$OUT/tail_ncu.txt" 2>&1
echo "ncu rc $?"; grep -E "^  [a-z_]|tma_ld|lts__|dram__|duration|per_second|inst_exec" "$OUT/tail_ncu.txt" | cut -c1-150
echo "all done at $(( $(date +%s) - T0 )) s"
