#!/bin/bash
# Call 5 (ragged-cost, entry 67): which part of uniform routing costs llama4-scout's forward gate_up at 16384 tokens
# more than its rows. Call 2 found uniform routing costing the suite config (128x256, TAIL_ROWS 32, dynamic schedule)
# 4.9 % interleaved and 4.4-5.4 % sustained against balanced, for 3.1 % more rows of MMA work; its 16 experts hold 12
# partial blocks and 4 merged tails. Two routings split those apart, each an m_sizes file (tokens shuffled):
# - tails: 1048 and 1000 rows x 8: eight experts of 8 blocks and a 24-row merged tail, eight of 8 blocks whose last
#   is 24 rows short; 16640 rows of MMA work (+1.6 % over 16384);
# - partial: 1072 and 976 rows x 8: eight experts of 8 blocks and a 9th of 48 rows, eight of 8 blocks whose last is
#   48 rows short; 17408 rows of MMA work (+6.25 %).
# With balanced and uniform (16896 rows, +3.1 %), in one process (routing_probe.py): checked, 6 interleaved rounds,
# then 4 s each sustained. Prediction: if each costs its rows, tails 0.985x and partial 0.94x balanced's TF/s; a
# routing that costs beyond its rows shows where uniform's extra 2 points come from.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P=results/h200/ragged-cost/routing_probe.py
C="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=4,TAIL_ROWS=32"
C="$C,use_tma_load_w=1,use_tma_load_x=1,pregather=1,dynamic_schedule=1,warp_specialize=1"
D=$(mktemp -d)
python3 -c "
import torch
torch.save(torch.tensor([1048, 1000] * 8), '$D/tails.pt')  # m_sizes: gemmtune.routing shuffles the tokens (seed 0)
torch.save(torch.tensor([1072, 976] * 8), '$D/partial.pt')
"
args=(--shape fwd:llama4-scout:gate_up:16384 --config "$C" --routing balanced=balanced --routing uniform=uniform
      --routing "tails=$D/tails.pt" --routing "partial=$D/partial.pt")
timeout 150 python3 $P "${args[@]}" > "$OUT/llama4_16384_parts.txt" 2>&1
echo "interleaved rc $? at $(( $(date +%s) - T0 )) s"
timeout 120 python3 $P "${args[@]}" --sustained 4 >> "$OUT/llama4_16384_parts.txt" 2>&1
echo "sustained rc $? at $(( $(date +%s) - T0 )) s"
grep -v "m_sizes \[\|check ok" "$OUT/llama4_16384_parts.txt" | cut -c1-170
echo "all done at $(( $(date +%s) - T0 )) s"
