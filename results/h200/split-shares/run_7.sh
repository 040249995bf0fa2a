#!/bin/bash
# Call 7 (split-shares, entry 61): after the review's mend (pruning.reduction_steps; splits_tails takes N and K), the
# split-tail and merged-tail GPU tests again.
set -u
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
timeout 300 python3 -m pytest -q -m gpu tests/test_gpu.py -k "split_tail or merged_tail" 2>&1 | tail -4 \
  > "$OUT/pytest_tails.txt"
cat "$OUT/pytest_tails.txt"
