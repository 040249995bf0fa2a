#!/bin/bash
# Call 6 (x-bytes, entry 65): calls 2-4 again with the TMA metrics call 5 found: bytes read from the L2 into each SM for
# TMA loads (`l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld`, split into `_dest_self` and `_dest_multicast`), the
# L2's read sectors and lts__t_bytes. One launch each, clocks not fixed: our suite config and the torch loop on
# llama4-scout's gate_up at 4096 tokens (balanced routing), and on the dense 4096x16384x5120 our kernel (3 stages),
# entry 62's pair probe (plain, multicast) and torch.mm. x_half.patch is not applied. Prediction: the TMA bytes into
# the SMs add up to each of our kernels' boxes (7.86 GB on both problems); the pair probe's multicast shows as
# dest_multicast bytes.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
M="l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld_dest_self.sum"
M="$M,l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld_dest_multicast.sum,l1tex__m_l1tex2xbar_read_requests_mem_global_op_tma_ld_dest_multicast.sum"
M="$M,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_bytes.sum,dram__bytes_read.sum,gpu__time_duration.sum,smsp__inst_executed_op_tma_ld.sum"
CFG="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_warps=8,use_tma_load_w=1,GROUP_SIZE_M=8,num_stages=4,TAIL_ROWS=32,warp_specialize=1,use_tma_load_x=1,pregather=1"
PROBLEM="--model llama4-scout --gemm gate_up --tokens 4096 --mode fwd --routing balanced"
timeout 100 ncu --clock-control none -k regex:grouped_gemm --launch-skip 1 --launch-count 1 --metrics $M \
  python3 benchmarks/ncu_probe.py $PROBLEM --config "$CFG" --launches 2 > "$OUT/ncu_grouped_ours.txt" 2>&1
echo "grouped ours rc $?"
timeout 150 ncu --clock-control none -k regex:nvjet --launch-count 16 --metrics $M \
  python3 benchmarks/ncu_probe.py $PROBLEM --config "$CFG" --launches 1 --torch > "$OUT/ncu_grouped_torch_loop.txt" 2>&1
echo "grouped torch loop rc $?"
G="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,warp_specialize=1"
timeout 100 ncu --clock-control none -k regex:grouped_gemm --launch-skip 1 --launch-count 1 --metrics $M \
  python3 results/h200/x-bytes/dense_launch.py "$G,num_stages=3" > "$OUT/ncu_dense_ours.txt" 2>&1
echo "dense ours rc $?"
timeout 150 ncu --clock-control none -k regex:pair_gemm --launch-skip 1 --launch-count 3 --metrics $M \
  python3 results/h200/pair-multicast/probe.py --tiling 3,64 --launches 2 4096,16384,5120 > "$OUT/ncu_dense_pair.txt" 2>&1
echo "dense pair rc $?"
timeout 100 ncu --clock-control none -k regex:nvjet --launch-skip 1 --launch-count 1 --metrics $M python3 -c "
import torch
x = torch.randn(4096, 5120, device='cuda', dtype=torch.bfloat16)
w = torch.randn(16384, 5120, device='cuda', dtype=torch.bfloat16)
for _ in range(2):
    torch.mm(x, w.T)
torch.cuda.synchronize()
" > "$OUT/ncu_dense_torch_mm.txt" 2>&1
echo "dense torch.mm rc $?"
for f in "$OUT"/ncu_*.txt; do echo "== $(basename "$f")"; grep -E "^  [a-z_]|tma_ld|lts__|dram__|duration" "$f" | cut -c1-150 | head -40; done
echo "all done at $(( $(date +%s) - T0 )) s"
