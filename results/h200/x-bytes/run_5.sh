#!/bin/bash
# Call 5 (x-bytes, entry 65): call 4 found lts__t_bytes under the sum of every kernel's TMA boxes. The metrics Nsight
# Compute offers on this GPU for the L2, the crossbar and shared memory, to find a count that adds up (the full list
# in metrics_gh100.txt). No kernel runs.
set -u
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
ncu --query-metrics --chip gh100 > "$OUT/metrics_gh100.txt" 2>&1
echo "rc $?"; wc -l < "$OUT/metrics_gh100.txt"
grep -iE "^(lts__t_(sectors|requests|bytes)|lts__d|lts__xbar|l1tex__m|l1tex__t_bytes|l1tex__data_pipe|smsp__sass_data|sm__sass_data|l1tex__tma|tma|gpc__|lts__average)" \
  "$OUT/metrics_gh100.txt" | cut -c1-160 | head -150
