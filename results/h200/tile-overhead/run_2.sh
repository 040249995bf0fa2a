#!/bin/bash
# Call 2 (tile-overhead, entry 65): call 1's fit on the other rows within a few percent of torch, and on llama4-scout's
# forward gate_up at 4096 tokens two ways apart: balanced routing (every expert 256 rows: no padding, no tails) and
# the 128x256 tiling. Prediction: llama4-scout's per-step gap (call 1: 1.098x torch's time per step) falls to 1-3 %
# with balanced routing, as entry 52's whole blocks ran 0.98x the torch loop.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
G="GROUP_SIZE_M=8,num_warps=8,warp_specialize=1"
run() {  # name spec reductions... [--routing R]
  local name=$1 spec=$2; shift 2
  timeout 150 env PYTHONPATH=benchmarks python3 results/h200/tile-overhead/reduction_probe.py --shape "$spec" \
    --reductions "$@" > "$OUT/$name.txt" 2>&1
  echo "$name rc $?"; sed -n '/^fit/,$p' "$OUT/$name.txt"
}
L4="fwd:llama4-scout:gate_up:4096:BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_stages=4,TAIL_ROWS=32,use_tma_load_w=1,use_tma_load_x=1,pregather=1,$G"
run llama4_fwd_gate_up_4096_balanced "$L4" 1280 2560 5120 10240 --routing balanced
run llama4_fwd_gate_up_4096_128x256 "fwd:llama4-scout:gate_up:4096:BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_stages=4,TAIL_ROWS=32,use_tma_load_w=1,use_tma_load_x=1,pregather=1,dynamic_schedule=1,$G" 1280 2560 5120 10240
run llama4_fwd_gate_up_16384 "fwd:llama4-scout:gate_up:16384:BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_stages=4,TAIL_ROWS=32,use_tma_load_w=1,use_tma_load_x=1,pregather=1,dynamic_schedule=1,$G" 1280 2560 5120 10240
run mixtral_fwd_gate_up_16384 "fwd:mixtral-8x7b:gate_up:16384:BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_stages=4,TAIL_ROWS=32,use_tma_load_w=1,use_tma_load_x=1,pregather=1,dynamic_schedule=1,$G" 1024 2048 4096 8192
run llama4_dx_down_16384 "dx:llama4-scout:down:16384:BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_stages=3,TAIL_ROWS=32,use_tma_load_dy=1,use_tma_load_w=1,pregather=1,dynamic_schedule=1,$G" 1280 2560 5120 10240
run mixtral_dx_down_4096 "dx:mixtral-8x7b:down:4096:BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_stages=4,TAIL_ROWS=32,use_tma_load_dy=1,use_tma_load_w=1,pregather=1,dynamic_schedule=1,$G" 1024 2048 4096 8192
echo "all done at $(( $(date +%s) - T0 )) s"
