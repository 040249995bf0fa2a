#!/bin/bash
# Call 6 (step-sync, entry 66): the prefetch distances of call 5 under sustained load, 4 s each with the SM clock and
# power sampled (step_probe.py --sustained), uniform and balanced routing. Call 5: prefetched 4 steps ahead as
# evict_last, the tiles sharing X start 0.03 us apart, the L2 reads 148 M sectors against 230 M without (0.64x, the
# ratio cuBLAS reads on this shape in x-bytes' call 6), DRAM unchanged, and the config ran only 1.017x itself.
# Prediction: if L2 reads set the clock at the power limit, prefetch 4 runs at a higher SM clock than no prefetch,
# by 2-4 % (x-bytes' X_HALF: 4-6 % for a third fewer bytes into the SMs); if they do not, the clocks match.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
git apply results/h200/step-sync/w_prefetch.patch || { echo "patch did not apply"; exit 1; }
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P=results/h200/step-sync/step_probe.py
for S in distance distance-balanced; do
  timeout 150 python3 $P --set $S --sustained 4 > "$OUT/${S}_sustained.txt" 2>&1
  echo "$S sustained rc $? at $(( $(date +%s) - T0 )) s"; cat "$OUT/${S}_sustained.txt" | cut -c1-200
done
echo "all done at $(( $(date +%s) - T0 )) s"
