#!/bin/bash
# Call 1 (spread-tail, entry 68): spread_tail, the rows past an expert's full blocks shared out over all of its
# blocks' tiles in a column, so that the tiles sharing a W block do equal work and keep step. Entry 65 (pair-grouped
# call 4): with experts of whole 128-row blocks the 128×256 tile keeps merged W reads and runs 1.056× the torch loop
# on llama4-scout's gate_up at 4096 tokens; with uniform routing its carried tail pulls the blocks apart for good.
# First the GPU correctness tests of spread_tail and of the carried merged tail (tile_origin changed), then
# llama4-scout's forward gate_up at 4096 tokens (uniform routing, the suite's problem) in one process, interleaved.
# Prediction: spread_tail's 128×256 configs 1.03-1.07× the suite config on that shape, at least level with the loop.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
timeout 300 python3 -m pytest -q -x tests/test_gpu.py -k "spread_tail or merged_tail_forward" > "$OUT/tests.txt" 2>&1
echo "tests rc $? at $(( $(date +%s) - T0 )) s"; tail -3 "$OUT/tests.txt"
export PYTHONPATH=benchmarks
P=results/h200/store-energy/config_probe.py
T="BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,pregather=1,warp_specialize=1"
S="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,TAIL_ROWS=16,spread_tail=1,$T"
timeout 260 python3 $P --shape fwd:llama4-scout:gate_up:4096 \
  --config "suite=BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,num_stages=4,TAIL_ROWS=32,$T" \
  --config "spread16 s3 static=num_stages=3,$S" \
  --config "spread16 s4 static=num_stages=4,$S" \
  --config "spread16 s3 dynamic=num_stages=3,dynamic_schedule=1,$S" \
  --config "carried16 s3 static=BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=3,TAIL_ROWS=16,$T" \
  > "$OUT/llama4_4096.txt" 2>&1
echo "probe rc $? at $(( $(date +%s) - T0 )) s"; cut -c1-170 "$OUT/llama4_4096.txt" | tail -25
echo "all done at $(( $(date +%s) - T0 )) s"
