#!/bin/bash
# Call 3 (pair-multicast, docs/perf-notes.md entry 62): call 2 found the cost in the cross-CTA release ("coupled" ran as
# slow as multicast, and twice as slow per step at 32 columns). Its arrive had .release.cluster semantics; here
# PTX's default (release at CTA scope, as CUTLASS's ClusterBarrier::arrive issues it) against that, at 3 stages of
# 64 columns and 6 of 32.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git status --short | grep -v "results/h200/" | head -20; } > "$OUT/device.txt"
P="results/h200/pair-multicast/probe.py --tiling 3,64 --tiling 3,64,.release.cluster --tiling 6,32"
timeout 150 python3 $P --check 4096,8192,4096 > "$OUT/check.txt" 2>&1; echo "check rc $?"
tail -8 "$OUT/check.txt" | cut -c1-200
if [ "$(grep -c 'rel err 0.00e+00' "$OUT/check.txt")" = 8 ]; then
  timeout 300 python3 $P --time --rounds 6 8192,8192,8192 4096,28672,4096 > "$OUT/time.txt" 2>&1
  echo "time rc $?"; cut -c1-200 "$OUT/time.txt"
fi
echo "all done at $(( $(date +%s) - T0 )) s"
