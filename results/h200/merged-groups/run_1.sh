#!/bin/bash
# Call 1 (merged-groups, entry 66): the GROUP_SIZE_M swizzle's small last group merged into the group before
# (merged_groups.patch; GEMMTUNE_MERGE_GROUPS=1 at a launch). An expert of 9 blocks is grouped 8 and 1 today, and that
# one block sweeps all of the expert's W columns again by itself; merged, it is one group of 9. routing-16384's call 2
# found unequal expert sizes of whole blocks costing mixtral's gate_up at 16384 tokens more than uniform routing (0.914x
# the torch loop against 0.954x), and its aligned routing gives two experts 17 blocks (8, 8, 1). With the suite's
# uniform routing llama4-scout's gate_up at 16384 tokens has three experts of 9 blocks (1060, 1070 and 1072 rows);
# mixtral's has none (the control: the same order either way). ring-unroll's env_probe.py, the suite config, the
# variable at 0 and 1: checked, 6 interleaved rounds, then 4 s each sustained, into one file per shape and routing.
# Prediction: merged runs 1-3 % faster where a group of one block exists, and the same on the control.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
git apply results/h200/merged-groups/merged_groups.patch || { echo "patch did not apply"; exit 1; }
bash benchmarks/device_setup.sh "$OUT"
P=results/h200/ring-unroll/env_probe.py
G="BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=4,TAIL_ROWS=32,use_tma_load_w=1,use_tma_load_x=1,pregather=1"
G="$G,dynamic_schedule=1,warp_specialize=1"
D=$(mktemp -d)
python3 -c "
import torch
torch.save(torch.tensor([4096] * 4 + [4352, 3840] * 2), '$D/mixtral_aligned.pt')
torch.save(torch.tensor([1024] * 8 + [1152, 896] * 4), '$D/llama4_aligned.pt')
"
run() {  # name model tile routing
  local name=$1 args=(--model "$2" --gemm gate_up --tokens 16384 --config "$3,$G" --routing "$4"
                      --env GEMMTUNE_MERGE_GROUPS --variants 0,1)
  timeout 150 python3 $P "${args[@]}" > "$OUT/$name.txt" 2>&1
  echo "$name interleaved rc $? at $(( $(date +%s) - T0 )) s"
  timeout 120 python3 $P "${args[@]}" --sustained 4 >> "$OUT/$name.txt" 2>&1
  echo "$name sustained rc $? at $(( $(date +%s) - T0 )) s"; grep -v "^  \[" "$OUT/$name.txt" | cut -c1-170
}
run llama4_uniform llama4-scout "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256" uniform
run llama4_aligned llama4-scout "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256" "$D/llama4_aligned.pt"
run mixtral_aligned mixtral-8x7b "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128" "$D/mixtral_aligned.pt"
run mixtral_uniform mixtral-8x7b "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128" uniform
echo "all done at $(( $(date +%s) - T0 )) s"
