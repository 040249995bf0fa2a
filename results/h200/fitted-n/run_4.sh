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
source results/h200/fitted-n/grouped_shapes.sh
echo "all done at $(( $(date +%s) - T0 )) s"
