#!/bin/bash
# Call 3 (x-bytes, entry 65): does entry 62's pair probe move cuBLAS's L2 bytes? Call 2 counted 34 % fewer L2 bytes for
# the torch loop's cuBLAS kernels (256x128 tiles in 1x2 clusters, multicast) than for ours on llama4-scout's gate_up at
# 4096 tokens, as a pair multicasting its shared block should; entry 62's probe counted only 6-8 % fewer with multicast
# on 8192^3. Nsight Compute over one launch of each pair variant (pair-multicast/probe.py, 3 stages of 64, PTX's
# default arrive) on the llama4-like dense 4096x16384x5120, and over torch.mm of the same. Shipped tree.
# Prediction: if the probe's multicast works as cuBLAS's does, multicast moves about a third fewer L2 read bytes than
# plain, as cuBLAS does against our unpaired kernel.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
METRICS="--metrics lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_op_read.sum,dram__bytes_read.sum,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum,launch__cluster_dim_x,launch__grid_size"
timeout 200 ncu --clock-control none -k regex:pair_gemm --launch-skip 1 --launch-count 5 $METRICS \
  python3 results/h200/pair-multicast/probe.py --tiling 3,64 --launches 2 4096,16384,5120 > "$OUT/ncu_pair.txt" 2>&1
echo "pair rc $?"
timeout 120 ncu --clock-control none -k regex:nvjet --launch-skip 1 --launch-count 1 $METRICS python3 -c "
import torch
x = torch.randn(4096, 5120, device='cuda', dtype=torch.bfloat16)
w = torch.randn(16384, 5120, device='cuda', dtype=torch.bfloat16)
for _ in range(2):
    torch.mm(x, w.T)
torch.cuda.synchronize()
" > "$OUT/ncu_torch_mm.txt" 2>&1
echo "torch.mm rc $?"
grep -E "pair_gemm|nvjet|lts__|dram__|duration|per_second|inst_exec|cluster_dim|grid_size" "$OUT"/ncu_*.txt | cut -c1-170
echo "all done at $(( $(date +%s) - T0 )) s"
