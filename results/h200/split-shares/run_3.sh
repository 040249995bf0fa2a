#!/bin/bash
# Call 3 (split-shares, docs/perf-notes.md entry 61): split_tail all or nothing: over all of the expert's blocks on
# reductions of at least TAIL_SPLIT_STEPS (128) K steps, carried whole below. Each shape's config carried (timed
# once), split on the kernels before entry 61 (arm "before": split on any reduction) and on the tree, in one process
# per shape (arms_probe.py: checked, 4 interleaved rounds beside the torch baselines).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P="results/h200/uniform-loader/arms_probe.py --arm before=results/h200/split-shares/arms/before --rounds 4"
WS="GROUP_SIZE_M=8,num_warps=8,warp_specialize=1,TAIL_ROWS=32"
F128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,use_tma_load_w=1,use_tma_load_x=1,$WS"
F256="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,use_tma_load_w=1,use_tma_load_x=1,$WS"
D128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,use_tma_load_dy=1,use_tma_load_w=1,$WS"
mkdir -p "$OUT/p"
run() {  # output-name mode:model:gemm:tokens config: carried once, split on both arms
  timeout 150 python3 $P --shape "$2:=$3;$3,split_tail=1" 2>&1 | grep -v Warning > "$OUT/p/$1.txt"
  cut -c1-160 "$OUT/p/$1.txt" | grep -v "check ok" | tail -6
  echo "$1 done at $(( $(date +%s) - T0 )) s"
}
run dx_mixtral_gate_up_4096 dx:mixtral-8x7b:gate_up:4096 "$D128,num_stages=3"
run fwd_llama4_gate_up_4096 fwd:llama4-scout:gate_up:4096 "$F256,num_stages=4,pregather=1"
run fwd_olmoe_gate_up_4096 fwd:olmoe-1b-7b:gate_up:4096 "$F128,num_stages=3,pregather=1,dynamic_schedule=1"
run dx_qwen3_gate_up_16384 dx:qwen3-30b-a3b:gate_up:16384 "$D128,num_stages=4,dynamic_schedule=1"
run fwd_llama4_down_16384 fwd:llama4-scout:down:16384 "$F128,num_stages=3,dynamic_schedule=1"
run dx_llama4_gate_up_16384 dx:llama4-scout:gate_up:16384 "$D128,num_stages=3"
run dx_mixtral_gate_up_16384 dx:mixtral-8x7b:gate_up:16384 "$D128,num_stages=3"
run fwd_deepseek_gate_up_16384 fwd:deepseek-v3:gate_up:16384 "$F128,num_stages=4,pregather=1,dynamic_schedule=1"
