#!/bin/bash
# Call 6 (ragged-cost, entry 67): call 5's four routings of llama4-scout's forward gate_up at 16384 tokens under Nsight
# Compute. Call 5 found tails costing ours 2.7 % for 1.6 % more MMA rows and partial blocks 7.2-7.7 % for 6.25 %, with
# our SM clock 30-45 MHz below balanced routing's under sustained load at the same 692 W, the loop's unchanged.
# Entry 60 found a tile that carries a tail falling behind the tiles that share its W columns, which then come from
# DRAM again. routing_probe.py --launches 2 (given --launches before this call; its other modes are as calls 1-5 ran
# them): ours twice per routing, each launch profiled: DRAM and L2 read bytes, duration, SM clock.
# Prediction: if ragged experts cost energy through W read again from DRAM, tails and uniform read more DRAM bytes than
# balanced (W once is 2.7 GB) and partial more still.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P=results/h200/ragged-cost/routing_probe.py
C="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=4,TAIL_ROWS=32"
C="$C,use_tma_load_w=1,use_tma_load_x=1,pregather=1,dynamic_schedule=1,warp_specialize=1"
D=$(mktemp -d)
python3 -c "
import torch
torch.save(torch.tensor([1048, 1000] * 8), '$D/tails.pt')  # m_sizes: gemmtune.routing shuffles the tokens (seed 0)
torch.save(torch.tensor([1072, 976] * 8), '$D/partial.pt')
"
M="dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second"
timeout 300 ncu --clock-control none -k "regex:grouped_gemm" --metrics $M python3 $P \
  --shape fwd:llama4-scout:gate_up:16384 --config "$C" --routing balanced=balanced --routing uniform=uniform \
  --routing "tails=$D/tails.pt" --routing "partial=$D/partial.pt" --launches 2 > "$OUT/llama4_16384_ncu.txt" 2>&1
echo "ncu rc $? at $(( $(date +%s) - T0 )) s"
grep -E "m_sizes|dram__|lts__|duration|per_second" "$OUT/llama4_16384_ncu.txt" | cut -c1-150
echo "all done at $(( $(date +%s) - T0 )) s"
