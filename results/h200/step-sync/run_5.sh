#!/bin/bash
# Call 5 (step-sync, entry 66): the prefetch distance (w_prefetch.patch, GEMMTUNE_W_PREFETCH=D; _HINT=1: evict_last),
# on llama4-scout's gate_up at 4096 tokens, uniform routing (step_probe.py --set distance). In call 4, 8 steps ahead,
# the tiles sharing X locked in step (0.1-0.26 us apart) and L2 read sectors fell 14-27 %, but DRAM reads rose 15 %
# (2.77 -> 3.2 GB) and the config ran 0.973x (uniform) and 0.992x (balanced) itself without it; 16 steps read 5.1 GB
# from DRAM. My reading: prefetched W lines are evicted before their load. Prediction: nearer (4-6 steps) or as
# evict_last, DRAM stays at 2.77 GB while sectors still fall, and the config gains over itself without the prefetch
# (1.01-1.04x).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
git apply results/h200/step-sync/w_prefetch.patch || { echo "patch did not apply"; exit 1; }
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P=results/h200/step-sync/step_probe.py
M="l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum"
M="$M,gpu__time_duration.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum"
for S in distance; do
  timeout 150 python3 $P --set $S --rounds 6 > "$OUT/${S}_interleaved.txt" 2>&1
  echo "$S interleaved rc $? at $(( $(date +%s) - T0 )) s"; grep -v "^  \[" "$OUT/${S}_interleaved.txt" | cut -c1-180
  timeout 100 ncu --clock-control none -k "regex:grouped_gemm" --metrics $M python3 $P --set $S --launches 2 \
    > "$OUT/${S}_ncu.txt" 2>&1
  echo "$S ncu rc $? at $(( $(date +%s) - T0 )) s"; grep -E "lts__t_sectors|lrc__|dram__|duration" "$OUT/${S}_ncu.txt" | cut -c1-150
  timeout 80 python3 $P --set $S --trace > "$OUT/${S}_trace.txt" 2>&1
  echo "$S trace rc $? at $(( $(date +%s) - T0 )) s"; grep -v "program:SM" "$OUT/${S}_trace.txt" | cut -c1-200
done
echo "all done at $(( $(date +%s) - T0 )) s"
