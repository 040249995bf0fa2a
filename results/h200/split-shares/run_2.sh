#!/bin/bash
# Call 2 (split-shares, docs/perf-notes.md entry 61): as call 1 on three more short reductions and llama4-scout's
# one-block experts; on mixtral-8x7b's dX gate_up (448 K steps) at 4096 and 16384 tokens also the capped kernel
# with TAIL_SHARE_STEPS 56 (arm "cap56": 8 shares at 448 steps, as many as an expert of 1024 rows has blocks).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
A=results/h200/split-shares/arms
P="results/h200/uniform-loader/arms_probe.py --arm before=$A/before --rounds 4"
WS="GROUP_SIZE_M=8,num_warps=8,warp_specialize=1,TAIL_ROWS=32"
F128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,use_tma_load_w=1,use_tma_load_x=1,$WS"
F256="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,use_tma_load_w=1,use_tma_load_x=1,$WS"
D128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,use_tma_load_dy=1,use_tma_load_w=1,$WS"
mkdir -p "$OUT/p"
run() {  # output-name mode:model:gemm:tokens config [extra arms]: carried once, split on every arm
  timeout 120 python3 $P $4 --shape "$2:=$3;$3,split_tail=1" 2>&1 | grep -v Warning > "$OUT/p/$1.txt"
  cut -c1-160 "$OUT/p/$1.txt" | grep -v "check ok" | tail -7
  echo "$1 done at $(( $(date +%s) - T0 )) s"
}
run dx_mixtral_gate_up_4096 dx:mixtral-8x7b:gate_up:4096 "$D128,num_stages=3" "--arm cap56=$A/cap56"
run dx_mixtral_gate_up_16384 dx:mixtral-8x7b:gate_up:16384 "$D128,num_stages=3" "--arm cap56=$A/cap56"
run fwd_llama4_gate_up_4096 fwd:llama4-scout:gate_up:4096 "$F256,num_stages=4,pregather=1"
run fwd_olmoe_gate_up_4096 fwd:olmoe-1b-7b:gate_up:4096 "$F128,num_stages=3,pregather=1,dynamic_schedule=1"
run dx_qwen3_gate_up_16384 dx:qwen3-30b-a3b:gate_up:16384 "$D128,num_stages=4,dynamic_schedule=1"
