#!/bin/bash
# Call 1 (fwd-tma-store, docs/perf-notes.md entry 63): the forward suite space has no use_tma_store. On one dense
# expert (coupled-pairs call 1) the Gluon kernel at 3 stages with a TMA store ran 1.012x its 4-stage register-store
# config on 4096x28672x4096 (0.984x on 8192^3). Here, on the forward shapes still below torch and mixtral's gate_up
# at 4096 tokens: the suite's best config, then 3 stages with a TMA store and no merged tail (a tail does not fit
# beside the store's 64 KB: 241,872 B), static and dynamic schedule, in both tilings; checked, then 6 interleaved
# rounds with the torch baselines (benchmarks/ncu_probe.py).
# Prediction: 1-3 % on mixtral's gate_up at 16384 tokens (32 blocks per expert, few tails); a loss on llama4-scout
# at 4096 (2 blocks per expert, where merged tails pay).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
B="BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,pregather=1,warp_specialize=1"
S="$B,num_stages=3,use_tma_store=1"
probe() {  # model tokens suite-config
  local name=$1_$2
  timeout 170 python3 benchmarks/ncu_probe.py --model "$1" --gemm gate_up --tokens "$2" --check --torch --rounds 6 \
    --config "$B,$3" \
    --config "$S,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256" --config "$S,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,dynamic_schedule=1" \
    --config "$S,BLOCK_SIZE_M=256,BLOCK_SIZE_N=128" --config "$S,BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,dynamic_schedule=1" \
    > "$OUT/$name.txt" 2>&1
  echo "$name rc $?"; cut -c1-200 "$OUT/$name.txt" | grep -v "^\s*$"
}
probe mixtral-8x7b 16384 "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1"
probe llama4-scout 16384 "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1"
probe llama4-scout 4096 "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,num_stages=4,TAIL_ROWS=32"
probe mixtral-8x7b 4096 "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1"
echo "all done at $(( $(date +%s) - T0 )) s"
