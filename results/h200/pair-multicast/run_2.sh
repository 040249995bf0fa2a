#!/bin/bash
# Call 2 (pair-multicast, docs/perf-notes.md entry 62): call 1's multicast ran 0.80-0.82x the pair kernel without it,
# its tensor pipe 60 % busy. Two questions: is it the slots that both CTAs must release before a refill ("coupled": the
# same handshake, each CTA loading all of W itself), and do more ring stages (6 of 32 columns) hide it? The remote
# arrive was then always .release.cluster, the SEM of these --tiling (its output names the variants without it).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git status --short | grep -v "results/h200/" | head -20; } > "$OUT/device.txt"
P="results/h200/pair-multicast/probe.py --tiling 3,64,.release.cluster --tiling 6,32,.release.cluster"
timeout 150 python3 $P --check 4096,8192,4096 > "$OUT/check.txt" 2>&1; echo "check rc $?"
tail -8 "$OUT/check.txt" | cut -c1-200
if [ "$(grep -c 'rel err 0.00e+00' "$OUT/check.txt")" = 6 ]; then
  timeout 300 python3 $P --time --rounds 6 8192,8192,8192 4096,28672,4096 > "$OUT/time.txt" 2>&1
  echo "time rc $?"; cut -c1-200 "$OUT/time.txt"
fi
echo "all done at $(( $(date +%s) - T0 )) s"
