#!/bin/bash
# Call 1 (routing-16384, entry 66): how much of the two forward gate_up rows below torch at 16384 tokens is their
# ragged experts. The suite config of mixtral's and llama4-scout's gate_up at 16384 tokens against the torch loop, with
# the suite's uniform routing and with balanced routing (every expert the same rows: 16 blocks of 256 on mixtral, 8 of
# 128 on llama4-scout, no partial block, no tail), each routing in its own process (../store-energy/config_probe.py):
# checked, 6 interleaved rounds, then 4 s each back to back with the SM clock and power, both into one file.
# Prediction: if the ragged experts (merged tails, partial blocks) are the gap, ours reaches the torch loop with
# balanced routing on both shapes; if not, the ratio stays about where uniform routing puts it.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P=results/h200/store-energy/config_probe.py
G="BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=4,TAIL_ROWS=32,use_tma_load_w=1,use_tma_load_x=1,pregather=1"
G="$G,dynamic_schedule=1,warp_specialize=1"
run() {  # name shape config routing
  local name=$1 args=(--shape "$2" --config "suite=$3,$G" --routing "$4")
  timeout 150 python3 $P "${args[@]}" > "$OUT/$name.txt" 2>&1
  echo "$name interleaved rc $? at $(( $(date +%s) - T0 )) s"
  timeout 120 python3 $P "${args[@]}" --sustained 4 >> "$OUT/$name.txt" 2>&1
  echo "$name sustained rc $? at $(( $(date +%s) - T0 )) s"; grep -v "^  \[" "$OUT/$name.txt" | cut -c1-180
}
for R in uniform balanced; do
  run mixtral_$R fwd:mixtral-8x7b:gate_up:16384 "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128" $R
  run llama4_$R fwd:llama4-scout:gate_up:16384 "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256" $R
done
echo "all done at $(( $(date +%s) - T0 )) s"
