#!/bin/bash
# Call 4 (fitted-n, entry 64): the width chosen once per K step. The PTX pass branch_wgmma_groups copies each K
# step's group of wgmmas once per width behind a branch on the tile's width, which the kernel passes through a
# redux.sync so that ptxas knows it uniform (call 3's copies made it serialize every wgmma). First the dense tile
# (fitted_n.py --groups) beside the narrowed and native kernels, then the grouped kernel with
# fitted_rows_branch.patch applied (grouped_probe.py), on call 3's four shapes. Prediction: the dense groups within
# 2 % of the narrowed kernel at 240 and of the native one at 256; in the grouped kernel fit_rows faster than swap_ab
# by about the padded rows it removes (1.5 % on llama4-scout gate_up at 4096 tokens, 3 % at 16384).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
timeout 150 python3 results/h200/fitted-n/fitted_n.py --n-out 16384 --k 5120 --rounds 6 --n 240 --groups 256 240 224 \
  --native 256 > "$OUT/groups_16384x5120.txt" 2>&1
echo "dense rc $?"; grep -v "^  \|^    " "$OUT/groups_16384x5120.txt" | cut -c1-200
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
