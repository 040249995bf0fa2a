#!/bin/bash
# Call 1 (pair-multicast, docs/perf-notes.md entry 62): does pair_gemm's TMA multicast build, run and stay correct,
# and what does it do to the time and the L2 bytes of a dense GEMM? Every step under a short timeout: a wrong
# cluster protocol hangs. The call ran an earlier probe.py with only the plain and the multicast variants (the remote
# arrive then always .release.cluster); this line reproduces them, and adds the coupled control of calls 2-3.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
P="results/h200/pair-multicast/probe.py --tiling 3,64,.release.cluster"
timeout 120 python3 $P --check 1024,1024,512 4096,8192,4096 > "$OUT/check.txt" 2>&1; echo "check rc $?"
tail -8 "$OUT/check.txt" | cut -c1-300
if grep -q "multicast.release.cluster: rel err" "$OUT/check.txt"; then
  timeout 240 python3 $P --time --rounds 6 8192,8192,8192 4096,28672,4096 4096,16384,5120 > "$OUT/time.txt" 2>&1
  echo "time rc $?"; cat "$OUT/time.txt" | cut -c1-200
  METRICS="--metrics lts__t_bytes.sum,dram__bytes_read.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second"
  timeout 150 ncu --clock-control none -k regex:pair_gemm --launch-skip 1 --launch-count 3 $METRICS \
    python3 $P --launches 2 8192,8192,8192 > "$OUT/ncu.txt" 2>&1
  echo "ncu rc $?"; grep -E "pair_gemm|lts__t_bytes|dram__bytes|hmma|duration|per_second|inst_exec" "$OUT/ncu.txt" | head -30
fi
echo "all done at $(( $(date +%s) - T0 )) s"
