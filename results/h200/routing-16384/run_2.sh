#!/bin/bash
# Call 2 (routing-16384, entry 66): which part of ragged experts costs our kernel at 16384 tokens. Call 1 found the
# suite configs of mixtral's and llama4-scout's forward gate_up at 0.98-1.00x the torch loop with balanced routing
# and 0.935-0.954x with uniform routing, the loop unchanged. Here a third routing, "aligned": experts of unequal size
# but whole blocks only, no partial block and no tail (mixtral: 4096 rows x 4, 4352 and 3840 x 2, multiples of 256;
# llama4-scout: 1024 x 8, 1152 and 896 x 4, multiples of 128), each shape in its own process with the m_sizes file
# written here (gemmtune.routing reads m_sizes from a .pt file). Checked, 6 interleaved rounds, 4 s each sustained.
# Prediction: if the partial blocks and merged tails are the cost, aligned runs as balanced did (0.98-1.00x); if the
# unequal expert sizes are, as uniform did (0.935-0.954x).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P=results/h200/store-energy/config_probe.py
G="BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=4,TAIL_ROWS=32,use_tma_load_w=1,use_tma_load_x=1,pregather=1"
G="$G,dynamic_schedule=1,warp_specialize=1"
D=$(mktemp -d)
python3 -c "
import torch
torch.save(torch.tensor([4096] * 4 + [4352, 3840] * 2), '$D/mixtral_aligned.pt')
torch.save(torch.tensor([1024] * 8 + [1152, 896] * 4), '$D/llama4_aligned.pt')
"
run() {  # name shape config routing
  local name=$1 args=(--shape "$2" --config "suite=$3,$G" --routing "$4")
  timeout 150 python3 $P "${args[@]}" > "$OUT/$name.txt" 2>&1
  echo "$name interleaved rc $? at $(( $(date +%s) - T0 )) s"
  timeout 120 python3 $P "${args[@]}" --sustained 4 >> "$OUT/$name.txt" 2>&1
  echo "$name sustained rc $? at $(( $(date +%s) - T0 )) s"; grep -v "^  \[" "$OUT/$name.txt" | cut -c1-180
}
run mixtral_aligned fwd:mixtral-8x7b:gate_up:16384 "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128" "$D/mixtral_aligned.pt"
run llama4_aligned fwd:llama4-scout:gate_up:16384 "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256" "$D/llama4_aligned.pt"
echo "all done at $(( $(date +%s) - T0 )) s"
