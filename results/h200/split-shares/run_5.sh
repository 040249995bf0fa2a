#!/bin/bash
# Call 5 (split-shares, entry 61): the GPU tests that call 4's 400 s left unrun (the rest of
# test_split_output_block_is_correct and test_warp_specialized_dw_is_correct), then llama4-scout's forward suite
# sweep again (its gate_up best config at 4096 tokens had split_tail over 80 K steps, now pruned) by
# tail-operand's run_suite.sh.
set -u
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
mkdir -p $OUT/call5
timeout 150 python3 -m pytest -q -m gpu tests/test_gpu.py -k "split_output_block or warp_specialized_dw" 2>&1 \
  | tail -4 > $OUT/call5/pytest_rest.txt
tail -2 $OUT/call5/pytest_rest.txt
bash results/h200/tail-operand/run_suite.sh 5 fwd:llama4-scout
