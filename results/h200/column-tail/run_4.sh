#!/bin/bash
# Call 4 (column-tail, entry 69): the suite's dX sweeps of llama4-scout and mixtral-8x7b with column_tail in the default
# space, then forward sweeps of the models whose experts fill two blocks or more at 4096 tokens (qwen3-30b-a3b,
# olmoe-1b-7b, gpt-oss-20b) while the call's time lasts (benchmarks/device_suite.sh; call4/call4_suite.tar.gz).
# Prediction: dX rows within 1-2 % of their last sweeps (call 2: the column tail 0.985-1.007× the suite configs on four
# dX rows), the forward rows of the other models likewise.
set -u
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_suite.sh 4 dx:llama4-scout dx:mixtral-8x7b fwd:qwen3-30b-a3b fwd:olmoe-1b-7b fwd:gpt-oss-20b
