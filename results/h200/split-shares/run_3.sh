#!/bin/bash
# Call 3 (split-shares, docs/perf-notes.md entry 61): split_tail all or nothing: over all of the expert's blocks on
# reductions of at least TAIL_SPLIT_STEPS (128) K steps, carried whole below. Each shape's config carried (timed
# once), split on the kernels before entry 61 (arm "before": split on any reduction) and on the tree, in one process
# per shape (arms_probe.py: checked, 4 interleaved rounds beside the torch baselines).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
RUN_TIMEOUT=150
source results/h200/split-shares/arms_calls.sh
run dx_mixtral_gate_up_4096 dx:mixtral-8x7b:gate_up:4096 "$D128,num_stages=3"
run fwd_llama4_gate_up_4096 fwd:llama4-scout:gate_up:4096 "$F256,num_stages=4,pregather=1"
run fwd_olmoe_gate_up_4096 fwd:olmoe-1b-7b:gate_up:4096 "$F128,num_stages=3,pregather=1,dynamic_schedule=1"
run dx_qwen3_gate_up_16384 dx:qwen3-30b-a3b:gate_up:16384 "$D128,num_stages=4,dynamic_schedule=1"
run fwd_llama4_down_16384 fwd:llama4-scout:down:16384 "$F128,num_stages=3,dynamic_schedule=1"
run dx_llama4_gate_up_16384 dx:llama4-scout:gate_up:16384 "$D128,num_stages=3"
run dx_mixtral_gate_up_16384 dx:mixtral-8x7b:gate_up:16384 "$D128,num_stages=3"
run fwd_deepseek_gate_up_16384 fwd:deepseek-v3:gate_up:16384 "$F128,num_stages=4,pregather=1,dynamic_schedule=1"
