#!/bin/bash
# Call 1 (store-energy, entry 66): the forward's register store against a TMA store, under sustained load, on the two
# forward rows below torch at 16384 tokens, where merged tails are few (config_probe.py). Per shape: the suite config
# (register store, merged tails, 4 stages), the same without tails, and a TMA store at 3 stages without tails (merged
# tails do not fit beside its 64 KB). Checked, 6 interleaved rounds, then 4 s each back to back with clock and power.
# Entry 63 timed the TMA store only interleaved (1.006x and 1.001x on these shapes); on a dense problem, sustained, its
# 3-stage TMA-store config did 1.02-1.04x the 4-stage register-store one (coupled-pairs).
# Prediction: if the register store's path costs energy per flop, the TMA store runs 1-3 % faster sustained, at a
# higher clock for the same work per clock; if not, within 1 % of the tail-less register store.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P=results/h200/store-energy/config_probe.py
G="BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,pregather=1,dynamic_schedule=1"
G="$G,warp_specialize=1"
run() {  # name shape tile
  local name=$1 shape=$2 tile=$3
  local args=(--shape "$shape" --config "suite=$tile,$G,num_stages=4,TAIL_ROWS=32"
              --config "no tail=$tile,$G,num_stages=4" --config "TMA store=$tile,$G,num_stages=3,use_tma_store=1")
  timeout 170 python3 $P "${args[@]}" > "$OUT/${name}_interleaved.txt" 2>&1
  echo "$name interleaved rc $? at $(( $(date +%s) - T0 )) s"; grep -v "^  \[" "$OUT/${name}_interleaved.txt" | cut -c1-200
  timeout 150 python3 $P "${args[@]}" --sustained 4 > "$OUT/${name}_sustained.txt" 2>&1
  echo "$name sustained rc $? at $(( $(date +%s) - T0 )) s"; cut -c1-200 "$OUT/${name}_sustained.txt"
}
run mixtral_gate_up_16384 fwd:mixtral-8x7b:gate_up:16384 "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128"
run llama4_gate_up_16384 fwd:llama4-scout:gate_up:16384 "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256"
echo "all done at $(( $(date +%s) - T0 )) s"
