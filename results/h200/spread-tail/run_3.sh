#!/bin/bash
# Call 3 (spread-tail, entry 68). Call 2: with spread_tail the 128×256 tile ran at the torch loop's clock on
# llama4-scout's gate_up at 4096 tokens, at 4-6 % less work per clock than the suite's 256×128 tile (3 % under
# balanced routing, pair-grouped call 1). The 128×256 tile issues one m64n256k16 per warpgroup and K slice, the
# 256×128 one two m64n128k16; entry 64's dense tile ran 1.2-3.5 % faster per column narrowed to n 240-248. Here
# `halves.patch` (on spread_tail.patch) splits the 256-column block into two 128-column wgmmas and accumulators, with
# GEMMTUNE_HALVES=1 at a launch (halves_probe.py), on four rows whose best or probed configs use 128×256 tiles.
# Prediction: if the n256 wgmma is what costs the work per clock, halves 1.02-1.05× on each 128×256 config.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P=results/h200/spread-tail/halves_probe.py
T="BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,warp_specialize=1"
SUITE="suite=BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,num_stages=4,TAIL_ROWS=32,pregather=1,$T"
S="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=3,TAIL_ROWS=16,spread_tail=1,pregather=1,$T"
timeout 150 python3 $P --shape fwd:llama4-scout:gate_up:4096 --config "$SUITE" --config "spread16=$S" \
  --config "spread16 halves=$S" > "$OUT/llama4_4096.txt" 2>&1
echo "llama4 4096 rc $? at $(( $(date +%s) - T0 )) s"; cut -c1-170 "$OUT/llama4_4096.txt" | tail -6
timeout 120 python3 $P --shape fwd:llama4-scout:gate_up:4096 --config "$SUITE" --config "spread16=$S" \
  --config "spread16 halves=$S" --sustained 4 > "$OUT/llama4_4096_sustained.txt" 2>&1
echo "sustained rc $? at $(( $(date +%s) - T0 )) s"; cut -c1-170 "$OUT/llama4_4096_sustained.txt" | tail -6
C="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=4,TAIL_ROWS=32,pregather=1,dynamic_schedule=1,$T"
timeout 120 python3 $P --shape fwd:mixtral-8x7b:gate_up:4096 --config "suite=$C" --config "suite halves=$C" \
  > "$OUT/mixtral_4096.txt" 2>&1
echo "mixtral 4096 rc $? at $(( $(date +%s) - T0 )) s"; cut -c1-170 "$OUT/mixtral_4096.txt" | tail -5
timeout 120 python3 $P --shape fwd:llama4-scout:gate_up:16384 --config "suite=$C" --config "suite halves=$C" \
  > "$OUT/llama4_16384.txt" 2>&1
echo "llama4 16384 rc $? at $(( $(date +%s) - T0 )) s"; cut -c1-170 "$OUT/llama4_16384.txt" | tail -5
D="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=3,$T"
timeout 120 python3 $P --shape fwd:mixtral-8x7b:down:16384 --config "suite=$D" --config "suite halves=$D" \
  > "$OUT/mixtral_down_16384.txt" 2>&1
echo "mixtral down 16384 rc $? at $(( $(date +%s) - T0 )) s"; cut -c1-170 "$OUT/mixtral_down_16384.txt" | tail -5
echo "all done at $(( $(date +%s) - T0 )) s"
