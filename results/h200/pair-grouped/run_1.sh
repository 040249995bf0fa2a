#!/bin/bash
# Call 1 (pair-grouped, entry 65): entry 62's CTA-pair kernel run grouped (pair-multicast/pair_gemm.py with experts > 1:
# pair row p is expert p) on llama4-scout's gate_up at 4096 tokens with balanced routing, beside our suite config and
# our 128x256 tile, on the same tensors (grouped_pair_probe.py). x-bytes' call 6 found that our grouped kernel's L2
# reads 0.87 of the bytes it loads, cuBLAS's multicast pairs 0.55, while on a dense problem the probe's plain pair was
# already merged (0.69) and its multicast saved only 9 % of reads. Here each pair shares W's block and nothing merges
# it across pairs. Checked, 6 interleaved rounds; then 4 s each back to back with clock and power; then Nsight Compute
# (the TMA bytes into the SMs, multicast bytes, L2 read sectors) over the second launch of each.
# Prediction: multicast reads about a third fewer L2 sectors than plain and runs 1.02-1.05x plain, at a higher clock.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
timeout 200 python3 results/h200/pair-grouped/grouped_pair_probe.py --rounds 6 > "$OUT/interleaved.txt" 2>&1
echo "interleaved rc $?"; grep -v "^  \[" "$OUT/interleaved.txt" | cut -c1-180
timeout 150 python3 results/h200/pair-grouped/grouped_pair_probe.py --sustained 4 > "$OUT/sustained.txt" 2>&1
echo "sustained rc $?"; cat "$OUT/sustained.txt"
M="l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld_dest_multicast.sum"
M="$M,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum"
timeout 200 ncu --clock-control none -k "regex:grouped_gemm|pair_gemm" --metrics $M \
  python3 results/h200/pair-grouped/grouped_pair_probe.py --launches 2 > "$OUT/ncu.txt" 2>&1
echo "ncu rc $?"; grep -E "^  [a-z_]|tma_ld|lts__|dram__|duration|per_second|inst_exec" "$OUT/ncu.txt" | cut -c1-150
echo "all done at $(( $(date +%s) - T0 )) s"
