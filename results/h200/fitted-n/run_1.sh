#!/bin/bash
# Call 1 (fitted-n, docs/perf-notes.md entry 64): a dense 128-row tile of W^T against 256 token columns, its wgmmas
# narrowed in the PTX to n = 248 ... 128, beside the native 128- and 256-column tiles, on llama4-scout's and
# mixtral-8x7b's gate_up N and K. Prediction: if a wgmma of N columns costs its own columns' time, each rewritten
# width runs within 2 % of the native 256 tile's TF/s down to n = 192, so tiles fitted to experts' rows would save
# the MMA time of the rows they no longer pad; if it costs the 256 it is padded from, TF/s falls as n / 256.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
for shape in 16384,5120 28672,4096; do
  timeout 200 python3 results/h200/fitted-n/fitted_n.py --n-out ${shape%,*} --k ${shape#*,} --rounds 6 \
    --n 256 248 240 224 192 160 136 128 --native 256 128 > "$OUT/fitted_${shape//,/x}.txt" 2>&1
  echo "$shape rc $?"; cut -c1-200 "$OUT/fitted_${shape//,/x}.txt"
done
echo "all done at $(( $(date +%s) - T0 )) s"
