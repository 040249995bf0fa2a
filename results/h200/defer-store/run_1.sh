#!/bin/bash
# Call 1 (defer-store, entry 65): the previous tile's store issued under this tile's first wgmma group.
# tile-overhead's fit put our fixed cost on mixtral-8x7b's dX down GEMM at 16384 tokens at 3.8 % of its time, torch
# loop's at 2.6 %, with the time per K step within 1 %. defer_store.patch (on 977867c): GEMMTUNE_DEFER_STORE=1 at a
# launch of the Gluon kernel (tiles without merged tails or split blocks) leaves each tile's output in registers in
# Y's dtype and stores it (TMA or register store, as configured) after the next tile's first K step is issued, so the
# tensor core works while the MMA warps store; 0 is the shipped code. Compiled for sm_90 both keep their wgmmas in
# flight (one full wait per tile); the deferred build spills a few scalars outside the K loop.
# Per shape, one process (ring-unroll/env_probe.py): both checked, 6 interleaved rounds with the torch baselines, then
# each 4 s back to back with the SM clock and power sampled. Then the fit of tile-overhead/call1 on mixtral's dX down
# again with every launch deferred. Prediction: 1-2 % on the dX down GEMMs (64-80 K steps), less on mixtral's forward
# down (224 steps); the deferred fit's fixed share about 1-2 points below call 1's 3.8 %.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
git apply results/h200/defer-store/defer_store.patch || { echo "patch did not apply"; exit 1; }
bash benchmarks/device_setup.sh "$OUT"
G="GROUP_SIZE_M=8,num_warps=8,warp_specialize=1"
DXC="BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,use_tma_load_dy=1,use_tma_load_w=1,pregather=1,dynamic_schedule=1,$G"
probe() { echo "=== $*"; timeout 120 python3 results/h200/ring-unroll/env_probe.py --env GEMMTUNE_DEFER_STORE --variants 0,1 "$@" 2>&1 | grep -v Warning; }
{
  probe --model mixtral-8x7b --gemm down --tokens 16384 --mode dx --config "$DXC,num_stages=3,use_tma_store=1"
  probe --model mixtral-8x7b --gemm down --tokens 16384 --mode dx --config "$DXC,num_stages=4"
  probe --model mixtral-8x7b --gemm down --tokens 4096 --mode dx --config "$DXC,num_stages=4"
  probe --model llama4-scout --gemm down --tokens 16384 --mode dx --config "$DXC,num_stages=3"
  probe --model mixtral-8x7b --gemm down --tokens 16384 --mode fwd --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_stages=3,use_tma_load_w=1,use_tma_load_x=1,$G"
} > "$OUT/interleaved.txt"
cut -c1-200 "$OUT/interleaved.txt" | grep -v "^  \["
{
  probe --model mixtral-8x7b --gemm down --tokens 16384 --mode dx --config "$DXC,num_stages=3,use_tma_store=1" --sustained 4
  probe --model llama4-scout --gemm down --tokens 16384 --mode dx --config "$DXC,num_stages=3" --sustained 4
} > "$OUT/sustained.txt"
cat "$OUT/sustained.txt"
GEMMTUNE_DEFER_STORE=1 timeout 150 env PYTHONPATH=benchmarks python3 results/h200/tile-overhead/reduction_probe.py \
  --shape "dx:mixtral-8x7b:down:16384:$DXC,num_stages=3,use_tma_store=1" --reductions 1024 2048 4096 8192 \
  > "$OUT/fit_deferred.txt" 2>&1
echo "fit rc $?"; sed -n '/^fit/,$p' "$OUT/fit_deferred.txt"
echo "all done at $(( $(date +%s) - T0 )) s"
