#!/bin/bash
# Call 6 (column-tail, entry 69): the whole GPU test suite on the tree with column_tail as a knob (its own correctness
# test, the merged-tail, split-tail and dX tests that share tile_origin and k_loop with it, and Triton's reported
# shared memory against pruning's prediction for every kept config of the default space, which now sweeps it).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
timeout 560 python3 -m pytest -q -m gpu tests/ > "$OUT/pytest_gpu_full.txt" 2>&1
echo "pytest rc $? at $(( $(date +%s) - T0 )) s"; tail -4 "$OUT/pytest_gpu_full.txt"
