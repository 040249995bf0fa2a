#!/bin/bash
# Call 4 (three-warpgroups): the grouped kernel over 192-row tiles (gemmtune.kernels.fwd_ws3, as in call 3) on
# one expert, beside call 1's dense probe kernels, mixtral's gate_up sizes: is what it loses in the grouped
# problems the kernel's or the experts'?
set -u
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
git log -1 --format=%H > "$OUT/device.txt" 2>/dev/null
timeout 200 python3 results/h200/three-warpgroups/three_wg_probe.py --M 9216 --N 28672 --K 4096 --config \
  "BLOCK_SIZE_M=192,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=12,num_stages=3,use_tma_load_w=1,use_tma_load_x=1,warp_specialize=1" \
  2>&1 | grep -v Warning > "$OUT/one_expert.txt"
cut -c1-160 "$OUT/one_expert.txt"
