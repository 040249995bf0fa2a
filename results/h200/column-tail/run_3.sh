#!/bin/bash
# Call 3 (column-tail, entry 69): column_tail as a knob of the default space (config, pruning, launch_ws). First its
# GPU correctness tests and the merged-tail tests it shares tile_origin and k_loop with, then the suite's forward
# sweeps of llama4-scout and mixtral-8x7b (benchmarks/device_suite.sh, the sweeps' files packed in
# call3/call3_suite.tar.gz).
# Prediction: the sweep picks column_tail on llama4-scout's gate_up at 4096 tokens, and that row moves from 0.95× toward
# 0.99× the torch loop (calls 1-2: 1.035-1.046× the suite config, the loop 1.059-1.091× it).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT/call3"
timeout 150 python3 -m pytest -q -x tests/test_gpu.py -k "column_tail or merged_tail_forward" > "$OUT/call3/tests.txt" 2>&1
echo "tests rc $? at $(( $(date +%s) - T0 )) s"; tail -2 "$OUT/call3/tests.txt"
bash benchmarks/device_suite.sh 3 fwd:llama4-scout fwd:mixtral-8x7b
echo "all done at $(( $(date +%s) - T0 )) s"
