#!/bin/bash
# Call 4 (pair-grouped, entry 65): why the 128x256 tile's merged L2 reads (call 1, balanced routing, permute none)
# are lost with uniform routing (calls 2-3). tail_probe.py --set aligned (the suite tile; 128x256 with and without
# TAIL_ROWS, static schedule) on llama4-scout's gate_up at 4096 tokens (permute_x, pregather) under three routings:
# balanced (every expert 256 rows), aligned (ragged experts of whole 128-row blocks: 8 of 256, 4 of 384, 4 of 128:
# no partial block, no tail) and uniform. Nsight Compute's L2 read sectors over each config's second launch, then
# 6 interleaved rounds. Prediction: if partial blocks and tails break the merging, aligned reads as few sectors as
# balanced (about 0.75x the suite tile's); if experts of different sizes do, aligned reads as many as uniform.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
M="l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second"
for r in balanced aligned uniform; do
  P="results/h200/pair-grouped/tail_probe.py --set aligned --routing $r"
  timeout 150 ncu --clock-control none -k "regex:grouped_gemm" --metrics $M python3 $P --launches 2 > "$OUT/aligned_ncu_$r.txt" 2>&1
  echo "ncu $r rc $?"; grep -E "m_sizes|lts__t_sectors|tma_ld|dram__" "$OUT/aligned_ncu_$r.txt" | cut -c1-150
  timeout 150 python3 $P --rounds 6 > "$OUT/aligned_interleaved_$r.txt" 2>&1
  echo "interleaved $r rc $?"; grep -v "^  \[" "$OUT/aligned_interleaved_$r.txt" | grep -E "ms |check" | cut -c1-150
done
echo "all done at $(( $(date +%s) - T0 )) s"
