#!/bin/bash
# Call 1 (split-shares, docs/perf-notes.md entry 61): split_tail with its shares capped at k_steps // 64 tiles per
# column (TAIL_SHARE_STEPS), one share stored whole. The GPU tests of split_tail, then each shape's suite config
# carried (timed once), split on the kernels before the cap (arm "before": 59a271a's fwd_ws.py and dw_ws.py) and
# split with the cap (tree), in one process per shape (arms_probe.py: checked, 4 interleaved rounds beside the
# torch baselines).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -k split_tail > "$OUT/pytest_split_tail.txt" 2>&1
echo "rc $?" >> "$OUT/pytest_split_tail.txt"; tail -3 "$OUT/pytest_split_tail.txt"
echo "tests done at $(( $(date +%s) - T0 )) s"
RUN_TIMEOUT=110
source results/h200/split-shares/arms_calls.sh
run fwd_mixtral_gate_up_4096 fwd:mixtral-8x7b:gate_up:4096 "$F128,num_stages=3,pregather=1,dynamic_schedule=1"
run dx_mixtral_down_4096 dx:mixtral-8x7b:down:4096 "$D128,num_stages=3,pregather=1,dynamic_schedule=1"
run fwd_mixtral_down_4096 fwd:mixtral-8x7b:down:4096 "$F128,num_stages=3,dynamic_schedule=1"
run dx_mixtral_gate_up_4096 dx:mixtral-8x7b:gate_up:4096 "$D128,num_stages=3"
