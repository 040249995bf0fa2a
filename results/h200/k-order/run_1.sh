#!/bin/bash
# Call 1 (k-order, entry 66): the 256x128 tile's wgmmas in K-outer order (k_outer.patch, GEMMTUNE_K_OUTER=1), on four
# suite rows whose best config is a 256x128 tile: llama4-scout's forward gate_up at 4096 tokens (uniform and balanced
# routing) and down at 4096, mixtral's gate_up at 16384. Checked, 6 interleaved rounds, then 4 s each back to back with
# the SM clock and power (korder_probe.py).
# Prediction: if the order of the wgmmas matters (consecutive ones sharing W's slice, two accumulators alternating),
# K-outer runs 1-3 % faster sustained, at a higher clock or more work per clock; if not, within 0.5 %.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
git apply results/h200/k-order/k_outer.patch || { echo "patch did not apply"; exit 1; }
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P=results/h200/k-order/korder_probe.py
B="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=4,TAIL_ROWS=32"
B="$B,use_tma_load_w=1,use_tma_load_x=1,warp_specialize=1"
run() {  # name args...
  local name=$1; shift
  timeout 150 python3 $P "$@" > "$OUT/${name}_interleaved.txt" 2>&1
  echo "$name interleaved rc $? at $(( $(date +%s) - T0 )) s"; grep -v "^  \[" "$OUT/${name}_interleaved.txt" | cut -c1-200
  timeout 120 python3 $P "$@" --sustained 4 > "$OUT/${name}_sustained.txt" 2>&1
  echo "$name sustained rc $? at $(( $(date +%s) - T0 )) s"; cut -c1-200 "$OUT/${name}_sustained.txt"
}
run llama4_gate_up_4096 --shape "fwd:llama4-scout:gate_up:4096:$B,pregather=1"
run llama4_gate_up_4096_balanced --shape "fwd:llama4-scout:gate_up:4096:$B,pregather=1" --routing balanced
run llama4_down_4096 --shape "fwd:llama4-scout:down:4096:$B,dynamic_schedule=1"
run mixtral_gate_up_16384 --shape "fwd:mixtral-8x7b:gate_up:16384:$B,pregather=1,dynamic_schedule=1"
echo "all done at $(( $(date +%s) - T0 )) s"
