#!/bin/bash
# Call 2 (step-sync, entry 66): which programs' W reads merge (step_sync.patch, GEMMTUNE_PROGRAM_MAP), on llama4-scout's
# gate_up at 4096 tokens with balanced routing (step_probe.py --set map): the 128x256 tile on the static schedule with
# an expert's two blocks of a column on neighbouring programs, programs two apart, or 66 apart. Checked, 6 interleaved
# rounds; Nsight Compute's TMA bytes, L2 read sectors and DRAM reads over two launches each; traced start gaps and SMs;
# Nsight Compute's list of the L2 Request Coalescer's (lrc__) metrics.
# Prediction: if the merging needs the two programs on one TPC, "two apart" and "66 apart" read about 250 M
# sectors where neighbours read about 163 M; if it needs only the timing, all three read about the same.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
git apply results/h200/step-sync/step_sync.patch || { echo "patch did not apply"; exit 1; }
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P=results/h200/step-sync/step_probe.py
M="l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,gpu__time_duration.sum"
for S in map; do
  timeout 170 python3 $P --set $S --rounds 6 > "$OUT/${S}_interleaved.txt" 2>&1
  echo "$S interleaved rc $? at $(( $(date +%s) - T0 )) s"; grep -v "^  \[" "$OUT/${S}_interleaved.txt" | cut -c1-180
  timeout 130 ncu --clock-control none -k "regex:grouped_gemm" --metrics $M python3 $P --set $S --launches 2 \
    > "$OUT/${S}_ncu.txt" 2>&1
  echo "$S ncu rc $? at $(( $(date +%s) - T0 )) s"; grep -E "lts__t_sectors|dram__|duration" "$OUT/${S}_ncu.txt" | cut -c1-150
  timeout 90 python3 $P --set $S --trace > "$OUT/${S}_trace.txt" 2>&1
  echo "$S trace rc $? at $(( $(date +%s) - T0 )) s"; cat "$OUT/${S}_trace.txt" | cut -c1-200
done
ncu --query-metrics 2>/dev/null | grep -i "^lrc" > "$OUT/lrc_metrics.txt"; head -20 "$OUT/lrc_metrics.txt"
echo "all done at $(( $(date +%s) - T0 )) s"
