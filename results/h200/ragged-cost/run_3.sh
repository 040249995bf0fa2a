#!/bin/bash
# Call 3 (ragged-cost, entry 67), three parts:
# 1. gemmtune.routing now lays an m_sizes file out as a router would (routing_from_m_sizes: each token's experts
#    distinct, tokens shuffled). mixtral-8x7b's forward gate_up at 16384 tokens under balanced, uniform and call 1's
#    aligned m_sizes file, in one process, 6 interleaved rounds. Prediction: the torch loop on the file within 1 % of
#    uniform (call 1: 1.049x balanced's time with the old contiguous layout, 1.002x with aligned topk_ids).
# 2. mixtral-8x7b's dX down GEMM at 16384 tokens (the suite's dX row furthest behind, 0.96x the loop), its suite config
#    under balanced and uniform routing in one process; interleaved, then 4 s each sustained. Prediction: if ragged
#    experts cost it, ours under uniform runs more than its 1.5 % of padded rows slower than under balanced.
# 3. loop_kernels.py: the cuBLAS kernel of each expert's torch.mm in the torch loop, on llama4-scout's gate_up at 4096
#    tokens (uniform and balanced) and mixtral's gate_up at 16384 (uniform).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P=results/h200/ragged-cost/routing_probe.py
D=$(mktemp -d)
python3 -c "import torch; torch.save(torch.tensor([4096] * 4 + [4352, 3840] * 2), '$D/aligned_file.pt')"
F="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=4,TAIL_ROWS=32"
F="$F,use_tma_load_w=1,use_tma_load_x=1,pregather=1,dynamic_schedule=1,warp_specialize=1"
timeout 150 python3 $P --shape fwd:mixtral-8x7b:gate_up:16384 --config "$F" --routing balanced=balanced \
  --routing uniform=uniform --routing "aligned_file=$D/aligned_file.pt" > "$OUT/mixtral_file.txt" 2>&1
echo "1 rc $? at $(( $(date +%s) - T0 )) s"
X="BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,GROUP_SIZE_M=8,num_warps=8,num_stages=3,use_tma_load_dy=1"
X="$X,use_tma_load_w=1,use_tma_store=1,pregather=1,dynamic_schedule=1,warp_specialize=1"
args=(--shape dx:mixtral-8x7b:down:16384 --config "$X" --routing balanced=balanced --routing uniform=uniform)
timeout 150 python3 $P "${args[@]}" > "$OUT/mixtral_dx_down.txt" 2>&1
echo "2 interleaved rc $? at $(( $(date +%s) - T0 )) s"
timeout 120 python3 $P "${args[@]}" --sustained 4 >> "$OUT/mixtral_dx_down.txt" 2>&1
echo "2 sustained rc $? at $(( $(date +%s) - T0 )) s"
K=results/h200/ragged-cost/loop_kernels.py
{ timeout 90 python3 $K --shape fwd:llama4-scout:gate_up:4096
  timeout 90 python3 $K --shape fwd:llama4-scout:gate_up:4096 --routing balanced
  timeout 90 python3 $K --shape fwd:mixtral-8x7b:gate_up:16384; } > "$OUT/loop_kernels.txt" 2>&1
echo "3 rc $? at $(( $(date +%s) - T0 )) s"
grep -v "m_sizes \[\|check ok" "$OUT/mixtral_file.txt" "$OUT/mixtral_dx_down.txt" | cut -c1-180
cut -c1-200 "$OUT/loop_kernels.txt"
echo "all done at $(( $(date +%s) - T0 )) s"
