#!/bin/bash
# Call 3 (tile-overhead, entry 65): the suite's best config of each forward and dX row within a few percent of torch
# not yet run under sustained load this session, back to back for 4 s with the torch loop, the SM clock and power
# sampled (ring-unroll/env_probe.py --sustained; its --env names a variable no code reads, so the one variant is the
# shipped kernel). Calls 1-2 of x-bytes and defer-store did the same for llama4-scout's forward gate_up at 4096 tokens
# and the two dX down GEMMs at 16384. Prediction: as there, ours does about as much work per clock as the torch loop
# and runs at a 3-8 % lower clock at the same 690-695 W.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
G="GROUP_SIZE_M=8,num_warps=8,warp_specialize=1"
probe() { echo "=== $*"; timeout 100 python3 results/h200/ring-unroll/env_probe.py --env GEMMTUNE_UNUSED --variants 0 --sustained 4 "$@" 2>&1 | grep -v Warning; }
{
  probe --model llama4-scout --gemm gate_up --tokens 16384 --mode fwd --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_stages=4,TAIL_ROWS=32,use_tma_load_w=1,use_tma_load_x=1,pregather=1,dynamic_schedule=1,$G"
  probe --model mixtral-8x7b --gemm gate_up --tokens 16384 --mode fwd --config "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_stages=4,TAIL_ROWS=32,use_tma_load_w=1,use_tma_load_x=1,pregather=1,dynamic_schedule=1,$G"
  probe --model mixtral-8x7b --gemm down --tokens 4096 --mode dx --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_stages=4,TAIL_ROWS=32,use_tma_load_dy=1,use_tma_load_w=1,pregather=1,dynamic_schedule=1,$G"
  probe --model mixtral-8x7b --gemm gate_up --tokens 4096 --mode dx --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_stages=3,TAIL_ROWS=32,use_tma_load_dy=1,use_tma_load_w=1,split_tail=1,$G"
  probe --model mixtral-8x7b --gemm down --tokens 16384 --mode fwd --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_stages=3,use_tma_load_w=1,use_tma_load_x=1,$G"
} > "$OUT/sustained.txt"
cat "$OUT/sustained.txt"
echo "all done at $(( $(date +%s) - T0 )) s"
