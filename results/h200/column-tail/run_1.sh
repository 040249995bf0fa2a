#!/bin/bash
# Call 1 (column-tail, entry 69): the merged tail split by columns over an expert's last two blocks
# (column_tail.patch's GEMMTUNE_COLUMN_TAIL=1, read at each launch). Entry 68's spread_tail gave the 128×256 tile's two
# blocks of a column equal work by rows: their W reads merged and the clock reached the torch loop's, but each block
# then ran a tail wgmma over all four 64-row W slabs, and the tile did 4-6 % less work per clock than the suite's
# 256×128 tile. Split by columns, each block multiplies the tail's rows by its half of the W block, two slabs, as the
# suite tile's tail does, and the two blocks still do equal work.
# First the GPU correctness tests of the merged tails (forward and dX) with the switch on, then llama4-scout's forward
# gate_up at 4096 tokens (uniform routing, the suite's problem) in one process: interleaved, then sustained.
# Prediction: the column tail's 128×256 configs 1.03-1.06× the suite config interleaved, 1.02-1.05× sustained at
# about the loop's clock, and the carried tail on the same tile well below (0.92× in entry 68).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
GEMMTUNE_COLUMN_TAIL=1 timeout 270 python3 -m pytest -q -x tests/test_gpu.py \
  -k "merged_tail_forward or (warp_specialized_dx and merged)" > "$OUT/tests.txt" 2>&1
echo "tests rc $? at $(( $(date +%s) - T0 )) s"; tail -3 "$OUT/tests.txt"
export PYTHONPATH=benchmarks
P="results/h200/store-energy/config_probe.py --switch column=GEMMTUNE_COLUMN_TAIL"
T="BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,pregather=1,warp_specialize=1"
SUITE="suite=BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,num_stages=4,TAIL_ROWS=32,$T"
W="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,$T"
timeout 150 python3 $P --shape fwd:llama4-scout:gate_up:4096 --config "$SUITE" \
  --config "t32 s3 static column=num_stages=3,TAIL_ROWS=32,$W" \
  --config "t32 s4 static column=num_stages=4,TAIL_ROWS=32,$W" \
  --config "t16 s3 static column=num_stages=3,TAIL_ROWS=16,$W" \
  --config "t32 s3 dynamic column=num_stages=3,TAIL_ROWS=32,dynamic_schedule=1,$W" \
  --config "t32 s3 static carried=num_stages=3,TAIL_ROWS=32,$W" \
  > "$OUT/llama4_4096.txt" 2>&1
echo "interleaved rc $? at $(( $(date +%s) - T0 )) s"; cut -c1-170 "$OUT/llama4_4096.txt" | tail -12
timeout 120 python3 $P --shape fwd:llama4-scout:gate_up:4096 --config "$SUITE" \
  --config "t32 s3 static column=num_stages=3,TAIL_ROWS=32,$W" --sustained 4 > "$OUT/llama4_4096_sustained.txt" 2>&1
echo "sustained rc $? at $(( $(date +%s) - T0 )) s"; cut -c1-170 "$OUT/llama4_4096_sustained.txt" | tail -6
echo "all done at $(( $(date +%s) - T0 )) s"
