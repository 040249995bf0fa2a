#!/bin/bash
# Call 1 (retime-order, docs/perf-notes.md entry 63): order_probe.py on three suite shapes below torch, their suite
# configs built three times. Prediction: if the launcher after torch_grouped_mm pays for its neighbour, copy 1
# reads >= 1 % slower than copies 2-3 under the rotated order on each shape, and the copies agree within 0.5 %
# shuffled.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
P="results/h200/retime-order/order_probe.py --copies 3 --rounds 6"
F="BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,pregather=1,warp_specialize=1,TAIL_ROWS=32,num_stages=4"
D="BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,GROUP_SIZE_M=8,num_warps=8,use_tma_load_dy=1,use_tma_load_w=1,warp_specialize=1"
for spec in "fwd:llama4-scout:gate_up:4096:$F,BLOCK_SIZE_M=256,BLOCK_SIZE_N=128" \
            "fwd:llama4-scout:gate_up:16384:$F,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,dynamic_schedule=1" \
            "dx:mixtral-8x7b:down:16384:$D,num_stages=3,use_tma_store=1,pregather=1,dynamic_schedule=1"; do
  name=$(echo "$spec" | cut -d: -f1-4 | tr : _)
  timeout 170 env PYTHONPATH=benchmarks python3 $P --shape "$spec" > "$OUT/$name.txt" 2>&1
  echo "$name rc $?"; cut -c1-160 "$OUT/$name.txt"
done
echo "all done at $(( $(date +%s) - T0 )) s"
