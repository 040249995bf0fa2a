#!/bin/bash
# Call 1 (x-bytes, entry 65): what X's L2 bytes cost on llama4-scout's forward gate_up at 4096 tokens, where each
# expert's 256 rows are one M block, so every tile of an expert reads the same X block and a CTA pair over two of its
# column blocks could multicast it. x_half.patch (on 977867c): GEMMTUNE_X_HALF=1 at a launch of the Gluon forward
# kernel issues X's TMA load on even K steps only, the odd steps' wgmma reading the slot's stale X (wrong output on
# purpose: timing only); 0 is the shipped code. With 256x128 tiles X is 32 of a step's 48 KB, so 1 moves a third
# fewer L2 bytes and the same DRAM bytes (W, streamed once, is untouched). Entry 54's probe, W on half the steps
# (a third fewer L2 bytes and half the DRAM reads), ran 1.07x in interleaved rounds there and raised the sustained
# clock from 1335-1350 to 1485 MHz.
# Per shape, one process: checked, then 6 interleaved rounds (ring-unroll/env_probe.py); then each variant 4 s back
# to back with the SM clock and power sampled. Prediction: if L2 bytes alone set the clock, X_HALF=1 runs 1.05-1.07x
# on llama4-scout (both routings); on mixtral's 128x256 tile, where X is 16 of 48 KB, about half that.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
git apply results/h200/x-bytes/x_half.patch || { echo "patch did not apply"; exit 1; }
bash benchmarks/device_setup.sh "$OUT"
F="BLOCK_SIZE_K=64,num_warps=8,use_tma_load_w=1,GROUP_SIZE_M=8,num_stages=4,TAIL_ROWS=32,warp_specialize=1,use_tma_load_x=1,pregather=1"
LL="--model llama4-scout --gemm gate_up --mode fwd --config BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,$F"
MIX="--model mixtral-8x7b --gemm gate_up --mode fwd --config BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,$F,dynamic_schedule=1"
probe() { echo "=== $*"; timeout 150 python3 results/h200/ring-unroll/env_probe.py --env GEMMTUNE_X_HALF --variants 0,1 "$@" 2>&1 | grep -v Warning; }
{ probe $LL; probe $LL --routing balanced; probe $MIX; } > "$OUT/interleaved.txt"
{ probe $LL --sustained 4; probe $LL --routing balanced --sustained 4; probe $MIX --sustained 4; } > "$OUT/sustained.txt"
cut -c1-190 "$OUT/interleaved.txt"; cat "$OUT/sustained.txt"
echo "all done at $(( $(date +%s) - T0 )) s"
