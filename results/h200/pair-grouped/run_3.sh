#!/bin/bash
# Call 3 (pair-grouped, entry 65): call 2's 128x256 tiles read as many L2 sectors as the 256x128 suite tile on uniform
# routing (227 M against call 1's 163 M with balanced routing), carried tail or split. Call 1's 128x256 ran the static
# schedule, call 2's the dynamic one, whose claims hand an expert's two blocks of one column to programs that free up
# at different times. tail_probe.py --set static: the same tiles on the static schedule, split_tail lowered to 80 K
# steps. Checked, 6 interleaved rounds; 4 s each sustained; Nsight Compute's TMA bytes and L2 read sectors.
# Prediction: on the static schedule the split tail's reads fall toward 0.75x the suite tile's and it runs 1.02-1.04x
# the suite config; the carried tail less so.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P="results/h200/pair-grouped/tail_probe.py --set static"
timeout 200 python3 $P --rounds 6 > "$OUT/static_interleaved.txt" 2>&1
echo "interleaved rc $?"; grep -v "^  \[" "$OUT/static_interleaved.txt" | cut -c1-180
timeout 150 python3 $P --sustained 4 > "$OUT/static_sustained.txt" 2>&1
echo "sustained rc $?"; cat "$OUT/static_sustained.txt"
M="l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum"
M="$M,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum"
timeout 200 ncu --clock-control none -k "regex:grouped_gemm" --metrics $M python3 $P --launches 2 > "$OUT/static_ncu.txt" 2>&1
echo "ncu rc $?"; grep -E "^  [a-z_]|tma_ld|lts__|dram__|duration|per_second|inst_exec" "$OUT/static_ncu.txt" | cut -c1-150
echo "all done at $(( $(date +%s) - T0 )) s"
