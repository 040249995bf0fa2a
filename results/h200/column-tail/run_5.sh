#!/bin/bash
# Call 5 (column-tail, entry 69): calls 3-4 swept the suite's spaces before column_tail was added to them
# (benchmarks/spaces/suite-fwd.toml and suite-dx.toml; configs/default.toml had it): those sweeps are re-runs of the
# spaces as they were. Here the forward and dX sweeps of llama4-scout and mixtral-8x7b with column_tail in the suite's
# spaces (benchmarks/device_suite.sh; call5/call5_suite.tar.gz).
# Prediction: the sweep picks column_tail on llama4-scout's forward gate_up at 4096 tokens, and that row moves from
# 0.95× toward 0.99× the torch loop (calls 1-2: 1.035-1.046× the suite config, the loop 1.059-1.091× it); the other
# rows within 1-2 % of calls 3-4.
set -u
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_suite.sh 5 fwd:llama4-scout fwd:mixtral-8x7b dx:llama4-scout dx:mixtral-8x7b
