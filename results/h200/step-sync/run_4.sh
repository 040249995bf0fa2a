#!/bin/bash
# Call 4 (step-sync, entry 66): W prefetched into L2 ahead of its TMA load (w_prefetch.patch, GEMMTUNE_W_PREFETCH=D),
# on llama4-scout's gate_up at 4096 tokens with the suite config (256x128, static schedule), uniform and balanced
# routing (step_probe.py --set prefetch, prefetch-balanced). The config's two tiles of one X block (programs 2j and
# 2j + 1, the same rows and tail) start 0.6-0.7 us apart even with balanced routing (call 2), where an expert's two
# 128-row blocks sharing W stay locked: my reading is that a pair locks when the operand it shares is the one that
# comes from DRAM, and each tile's own W from DRAM parts the pair. Checked, 6 interleaved rounds; Nsight Compute (L2
# read sectors, the L2 Request Coalescer's hardware-coalesced sectors); traced start gaps.
# Prediction: with W in L2 before its load, the X pairs start under 0.1 us apart, their X reads coalesce (L2 read
# sectors from about 225 M toward 170 M), and the config runs 1.03-1.05x itself without the prefetch (x-bytes' X_HALF
# probe, a third fewer bytes: 1.044-1.055x).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
git apply results/h200/step-sync/w_prefetch.patch || { echo "patch did not apply"; exit 1; }
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P=results/h200/step-sync/step_probe.py
M="l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum"
M="$M,gpu__time_duration.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum"
for S in prefetch prefetch-balanced; do
  timeout 150 python3 $P --set $S --rounds 6 > "$OUT/${S}_interleaved.txt" 2>&1
  echo "$S interleaved rc $? at $(( $(date +%s) - T0 )) s"; grep -v "^  \[" "$OUT/${S}_interleaved.txt" | cut -c1-180
  timeout 100 ncu --clock-control none -k "regex:grouped_gemm" --metrics $M python3 $P --set $S --launches 2 \
    > "$OUT/${S}_ncu.txt" 2>&1
  echo "$S ncu rc $? at $(( $(date +%s) - T0 )) s"; grep -E "lts__t_sectors|lrc__|dram__|duration" "$OUT/${S}_ncu.txt" | cut -c1-150
  timeout 80 python3 $P --set $S --trace > "$OUT/${S}_trace.txt" 2>&1
  echo "$S trace rc $? at $(( $(date +%s) - T0 )) s"; grep -v "program:SM" "$OUT/${S}_trace.txt" | cut -c1-200
done
echo "all done at $(( $(date +%s) - T0 )) s"
