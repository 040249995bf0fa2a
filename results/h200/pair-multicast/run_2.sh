#!/bin/bash
# Calls 2 and 3 (pair-multicast, docs/perf-notes.md entry 62): `run_2.sh --tiling ... [--tiling ...]`: every variant
# of the given tilings (probe.py) checked against torch.mm, then, if all match, timed on two dense shapes.
# - Call 2: `--tiling 3,64,.release.cluster --tiling 6,32,.release.cluster`. Call 1's multicast had run 0.80-0.82x
#   the pair kernel without it, its tensor pipe 60 % busy. Is it the slots that both CTAs must release before a
#   refill ("coupled": the same release, each CTA loading all of W itself), and do more ring stages (6 of 32 columns)
#   hide it? The remote arrive was then always .release.cluster (its output names the variants without the suffix).
# - Call 3: `--tiling 3,64 --tiling 3,64,.release.cluster --tiling 6,32`. Call 2 found the cost in the cross-CTA
#   release (coupled as slow as multicast, twice as slow per step at 32 columns); PTX's default semantics for the
#   remote arrive (release at CTA scope, as CUTLASS's ClusterBarrier::arrive issues it) against .release.cluster.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
P="results/h200/pair-multicast/probe.py $*"
timeout 150 python3 $P --check 4096,8192,4096 > "$OUT/check.txt" 2>&1; echo "check rc $?"
tail -8 "$OUT/check.txt" | cut -c1-200
checked=$(grep -c "rel err" "$OUT/check.txt"); exact=$(grep -c "rel err 0.00e+00" "$OUT/check.txt")
if [ "$checked" -gt 0 ] && [ "$checked" = "$exact" ]; then
  timeout 300 python3 $P --time --rounds 6 8192,8192,8192 4096,28672,4096 > "$OUT/time.txt" 2>&1
  echo "time rc $?"; cut -c1-200 "$OUT/time.txt"
fi
echo "all done at $(( $(date +%s) - T0 )) s"
