#!/bin/bash
# Call 6 (split-shares, docs/perf-notes.md entry 61): the old split (arm "before": 59a271a's kernel modules, split on
# any reduction over all of an expert's blocks) against the carried tail on reductions of 64-90 K steps with 8-32
# blocks per expert, the lengths TAIL_SPLIT_STEPS = 128 leaves carried; two of them are suite rows below torch
# (llama4-scout's forward gate_up and dX down at 16384 tokens, 80 K steps). One process per shape (arms_probe.py:
# checked, 4 interleaved rounds beside the torch baselines); the tree's split row is the carried kernel there.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
RUN_TIMEOUT=150
source results/h200/split-shares/arms_calls.sh
run fwd_llama4_gate_up_16384 fwd:llama4-scout:gate_up:16384 "$F128,num_stages=4,pregather=1,dynamic_schedule=1"
run dx_llama4_down_16384 dx:llama4-scout:down:16384 "$D128,num_stages=3,pregather=1,dynamic_schedule=1"
run dx_gpt-oss_gate_up_16384 dx:gpt-oss-20b:gate_up:16384 "$D128,num_stages=3"
run fwd_mixtral_gate_up_16384 fwd:mixtral-8x7b:gate_up:16384 "$F128,num_stages=4,pregather=1,dynamic_schedule=1"
