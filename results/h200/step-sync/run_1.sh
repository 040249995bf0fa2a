#!/bin/bash
# Call 1 (step-sync, entry 66): an expert's two 128-row blocks kept in step at every K step through global memory
# (step_sync.patch, GEMMTUNE_PAIR_SYNC=2), on llama4-scout's gate_up at 4096 tokens with uniform routing
# (step_probe.py --set sync). Checked, 6 interleaved rounds; Nsight Compute's TMA bytes, L2 read sectors and DRAM
# reads over two launches each; traced start gaps.
# Prediction: coupled at every step, the carried tail's blocks start within a K step's fraction, its L2 read sectors
# fall from about 220 M toward aligned routing's 170-175 M, its DRAM reads from 4.7 GB toward 2.8, and it runs at least
# level with the suite config (0.87x without, 0.96x coupled per tile in entry 65); split_tail coupled at every step
# loses (each share's tail steps hold its sibling back), unless the reads merge.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
git apply results/h200/step-sync/step_sync.patch || { echo "patch did not apply"; exit 1; }
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P=results/h200/step-sync/step_probe.py
M="l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,gpu__time_duration.sum"
for S in sync; do
  timeout 170 python3 $P --set $S --rounds 6 > "$OUT/${S}_interleaved.txt" 2>&1
  echo "$S interleaved rc $? at $(( $(date +%s) - T0 )) s"; grep -v "^  \[" "$OUT/${S}_interleaved.txt" | cut -c1-180
  timeout 130 ncu --clock-control none -k "regex:grouped_gemm" --metrics $M python3 $P --set $S --launches 2 \
    > "$OUT/${S}_ncu.txt" 2>&1
  echo "$S ncu rc $? at $(( $(date +%s) - T0 )) s"; grep -E "lts__t_sectors|dram__|duration" "$OUT/${S}_ncu.txt" | cut -c1-150
  timeout 90 python3 $P --set $S --trace > "$OUT/${S}_trace.txt" 2>&1
  echo "$S trace rc $? at $(( $(date +%s) - T0 )) s"; cat "$OUT/${S}_trace.txt" | cut -c1-200
done
echo "all done at $(( $(date +%s) - T0 )) s"
