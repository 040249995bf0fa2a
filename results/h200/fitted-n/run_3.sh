#!/bin/bash
# Call 3 (fitted-n, entry 64): the Gluon forward kernel with fitted_rows.patch applied (swap_ab, fit_rows), one
# process per shape: a 256-row config, the same with swap_ab, and with swap_ab and fit_rows, beside the suite's
# config where it differs, all checked, then timed with the torch baselines in 6 interleaved rounds. Prediction: if
# fitted tiles save the MMA time of the rows they no longer pad, fit_rows runs faster than swap_ab by about the
# share of padded rows it removes (printed per shape), on llama4-scout's gate_up at 4096 tokens 3-5 %.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
B="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,TAIL_ROWS=32,use_tma_load_w=1,use_tma_load_x=1,warp_specialize=1"
S="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,TAIL_ROWS=32,use_tma_load_w=1,use_tma_load_x=1,warp_specialize=1"
run() {  # name spec
  timeout 150 env PYTHONPATH=benchmarks python3 results/h200/fitted-n/grouped_probe.py --rounds 6 --shape "$2" \
    > "$OUT/$1.txt" 2>&1
  echo "$1 rc $?"; grep -v "^    \|^  n\|^  \[" "$OUT/$1.txt" | cut -c1-230
}
run llama4_gate_up_4096 "fwd:llama4-scout:gate_up:4096:$B,num_stages=4,pregather=1"
run llama4_down_4096 "fwd:llama4-scout:down:4096:$B,num_stages=4,dynamic_schedule=1"
run mixtral_gate_up_4096 "fwd:mixtral-8x7b:gate_up:4096:$B,num_stages=4,pregather=1,dynamic_schedule=1|$S,num_stages=4,pregather=1,dynamic_schedule=1"
run llama4_gate_up_16384 "fwd:llama4-scout:gate_up:16384:$B,num_stages=4,pregather=1,dynamic_schedule=1|$S,num_stages=4,pregather=1,dynamic_schedule=1"
echo "all done at $(( $(date +%s) - T0 )) s"
