#!/bin/bash
# Call 1 (tile-overhead, entry 65): each shape at several reduction lengths, everything else equal, our suite config
# and the torch baselines timed per length in 6 interleaved rounds, then t = fixed + per_step * steps fitted per
# kernel (reduction_probe.py). Shapes: mixtral-8x7b's dX down at 16384 tokens (0.96x torch, 64 K steps), llama4-scout's
# forward gate_up at 4096 (0.95x, 80 steps), and mixtral's forward down at 16384 (1.07x, 224 steps) as the control.
# Prediction: on the two short reductions our fixed cost is a larger share of the time than torch's, by about the gap
# (3-5 %); on the control the shares are alike.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
G="GROUP_SIZE_M=8,num_warps=8,warp_specialize=1"
run() {  # name spec reductions...
  local name=$1 spec=$2; shift 2
  timeout 200 env PYTHONPATH=benchmarks python3 results/h200/tile-overhead/reduction_probe.py --shape "$spec" \
    --reductions "$@" > "$OUT/$name.txt" 2>&1
  echo "$name rc $?"; sed -n '/^fit/,$p' "$OUT/$name.txt"
}
run mixtral_dx_down_16384 "dx:mixtral-8x7b:down:16384:BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_stages=3,use_tma_load_dy=1,use_tma_load_w=1,use_tma_store=1,pregather=1,dynamic_schedule=1,$G" 1024 2048 4096 8192
run llama4_fwd_gate_up_4096 "fwd:llama4-scout:gate_up:4096:BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_stages=4,TAIL_ROWS=32,use_tma_load_w=1,use_tma_load_x=1,pregather=1,$G" 1280 2560 5120 10240
run mixtral_fwd_down_16384 "fwd:mixtral-8x7b:down:16384:BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_stages=3,use_tma_load_w=1,use_tma_load_x=1,$G" 1792 3584 7168 14336
echo "all done at $(( $(date +%s) - T0 )) s"
