#!/bin/bash
# Call 1 (ragged-cost, entry 67): mixtral-8x7b's forward gate_up at 16384 tokens, the suite config and the torch loop
# under five routings in one process (routing_probe.py), so the routings' times compare. routing-16384 ran each routing
# in its own process and could not tell whether "aligned" (experts of unequal size in whole blocks) slowed ours or
# sped up the loop. Its aligned routing came from an m_sizes file, which gemmtune.routing lays out contiguously: with
# topk 2 each token then goes to one expert twice, so every expert's X rows come in identical pairs. Here:
# - balanced, uniform: as routing-16384's call 1;
# - aligned_dup: its call 2's m_sizes file (4096 x 4, 4352 and 3840 x 2), identical row pairs;
# - balanced_dup: balanced's sizes (4096 x 8) from an m_sizes file, identical row pairs;
# - aligned: aligned's sizes as topk_ids, each token's two experts distinct and the tokens shuffled.
# Checked, 6 interleaved rounds; then, in a second process, 4 s each sustained with the SM clock and power.
# Prediction: if the identical row pairs are what made aligned lose to the loop, aligned_dup and balanced_dup put ours
# 3-5 points lower against the loop than balanced and aligned do; if the unequal sizes are, aligned and aligned_dup
# sit together below balanced and balanced_dup.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P=results/h200/ragged-cost/routing_probe.py
C="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=4,TAIL_ROWS=32"
C="$C,use_tma_load_w=1,use_tma_load_x=1,pregather=1,dynamic_schedule=1,warp_specialize=1"
D=$(mktemp -d)
python3 -c "
import torch
M, topk, aligned = 16384, 2, [4096] * 4 + [4352, 3840] * 2
torch.save(torch.tensor(aligned), '$D/aligned_dup.pt')
torch.save(torch.tensor([4096] * 8), '$D/balanced_dup.pt')
seq = torch.repeat_interleave(torch.arange(8), torch.tensor(aligned))
ids = seq.reshape(topk, M).T  # token t: experts seq[t] and seq[M + t], distinct as no expert has M rows
ids = ids[torch.randperm(M, generator=torch.Generator().manual_seed(0))]
assert (ids[:, 0] != ids[:, 1]).all() and torch.bincount(ids.flatten()).tolist() == aligned
torch.save(ids, '$D/aligned.pt')
"
R=(--routing balanced=balanced --routing uniform=uniform --routing "aligned_dup=$D/aligned_dup.pt"
   --routing "balanced_dup=$D/balanced_dup.pt" --routing "aligned=$D/aligned.pt")
args=(--shape fwd:mixtral-8x7b:gate_up:16384 --config "$C" "${R[@]}")
timeout 240 python3 $P "${args[@]}" > "$OUT/mixtral.txt" 2>&1
echo "interleaved rc $? at $(( $(date +%s) - T0 )) s"
timeout 180 python3 $P "${args[@]}" --sustained 4 >> "$OUT/mixtral.txt" 2>&1
echo "sustained rc $? at $(( $(date +%s) - T0 )) s"
cut -c1-200 "$OUT/mixtral.txt"
echo "all done at $(( $(date +%s) - T0 )) s"
