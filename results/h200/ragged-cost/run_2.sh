#!/bin/bash
# Call 2 (ragged-cost, entry 67): llama4-scout's forward gate_up at 16384 and 4096 tokens, the suite configs and the
# torch loop under four routings in one process each (routing_probe.py). Call 1 found mixtral's gate_up at 16384
# tokens as fast under every routing (ours 0.996-1.000x balanced's time, the loop 1.002-1.003x) except that the loop
# ran 5-7 % faster on identical row pairs (m_sizes files with topk 2). routing-16384 had put llama4-scout 3-4.5 points
# lower against the loop under uniform than under balanced routing, in separate processes. topk is 1 here, so an
# m_sizes file makes no identical rows; it gives each expert a contiguous range of tokens.
# - balanced, uniform: the suite's and routing-16384's;
# - aligned: experts of unequal size in whole 128-row blocks (16384 tokens: 1024 x 8, 1152 and 896 x 4, as
#   routing-16384's call 2; 4096 tokens: 256 x 8, 384 and 128 x 4, pair-grouped's ALIGNED_M_SIZES), as topk_ids
#   with the tokens shuffled;
# - aligned_file: the same sizes from an m_sizes file (contiguous tokens).
# Checked, 6 interleaved rounds; then, in a second process, 4 s each sustained with the SM clock and power.
# Prediction: if ragged experts cost ours on this shape, ours runs 3-4 % slower under uniform than under balanced
# routing in one process while the loop's time stays within 1 %.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P=results/h200/ragged-cost/routing_probe.py
G="BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=4,TAIL_ROWS=32,use_tma_load_w=1,use_tma_load_x=1,pregather=1"
G="$G,warp_specialize=1"
D=$(mktemp -d)
python3 -c "
import torch
for M, aligned in ((16384, [1024] * 8 + [1152, 896] * 4), (4096, [256] * 8 + [384, 128] * 4)):
    torch.save(torch.tensor(aligned), f'$D/aligned_file_{M}.pt')
    ids = torch.repeat_interleave(torch.arange(16), torch.tensor(aligned))[:, None]  # topk 1
    ids = ids[torch.randperm(M, generator=torch.Generator().manual_seed(0))]
    assert torch.bincount(ids.flatten()).tolist() == aligned
    torch.save(ids, f'$D/aligned_{M}.pt')
"
run() {  # tokens config
  local args=(--shape "fwd:llama4-scout:gate_up:$1" --config "$2,$G" --routing balanced=balanced
              --routing uniform=uniform --routing "aligned=$D/aligned_$1.pt" --routing "aligned_file=$D/aligned_file_$1.pt")
  timeout 150 python3 $P "${args[@]}" > "$OUT/llama4_$1.txt" 2>&1
  echo "$1 interleaved rc $? at $(( $(date +%s) - T0 )) s"
  timeout 120 python3 $P "${args[@]}" --sustained 4 >> "$OUT/llama4_$1.txt" 2>&1
  echo "$1 sustained rc $? at $(( $(date +%s) - T0 )) s"; grep -v "m_sizes\|check ok" "$OUT/llama4_$1.txt" | cut -c1-160
}
run 16384 "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,dynamic_schedule=1"
run 4096 "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128"
echo "all done at $(( $(date +%s) - T0 )) s"
