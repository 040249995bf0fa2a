#!/bin/bash
# Call 3 (wide-tile): the split 256x192 block with a deeper ring. Call 2 put its loss in the 3 stages, not the
# split (256x128 at 3 stages ran as slowly). Four 64-deep stages fill 229,376 B, leaving no room for the row
# store's scratch, so at 4 stages the tree stores a split block straight from the accumulators (4-byte pieces);
# BLOCK_SIZE_K 32 at 6-7 stages keeps the row store. Per shape, one process: checked, 6 interleaved rounds;
# then mixtral's gate_up forward at 4096 tokens under 4 s of sustained load each.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git status --short | head -20; } > "$OUT/device.txt"
export PYTHONPATH=benchmarks
W="num_warps=8,use_tma_load_w=1,GROUP_SIZE_M=8,warp_specialize=1"
FS="BLOCK_SIZE_M=256,BLOCK_SIZE_N=192,$W,use_tma_load_x=1"
DS="BLOCK_SIZE_M=256,BLOCK_SIZE_N=64,BLOCK_SIZE_K=192,num_stages=4,$W,use_tma_load_dy=1"
SHIP="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1,$W,use_tma_load_x=1,pregather=1"
P="--check --torch --rounds 6"
{
echo "=== mixtral-8x7b gate_up fwd"
timeout 150 python3 benchmarks/ncu_probe.py --model mixtral-8x7b --gemm gate_up --mode fwd $P --config "$SHIP" \
  --config "$FS,BLOCK_SIZE_K=64,num_stages=4,pregather=1" --config "$FS,BLOCK_SIZE_K=64,num_stages=4,pregather=1,dynamic_schedule=1" \
  --config "$FS,BLOCK_SIZE_K=32,num_stages=6,pregather=1" --config "$FS,BLOCK_SIZE_K=32,num_stages=7,pregather=1" 2>&1 | grep -v Warning
echo "=== mixtral-8x7b down fwd"
timeout 90 python3 benchmarks/ncu_probe.py --model mixtral-8x7b --gemm down --mode fwd $P \
  --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_stages=4,num_warps=8,use_tma_load_w=1,GROUP_SIZE_M=8,use_tma_load_x=1,half_tail=1" \
  --config "$FS,BLOCK_SIZE_K=64,num_stages=4" --config "$FS,BLOCK_SIZE_K=64,num_stages=4,dynamic_schedule=1" 2>&1 | grep -v Warning
echo "=== mixtral-8x7b gate_up dx"
timeout 90 python3 benchmarks/ncu_probe.py --model mixtral-8x7b --gemm gate_up --mode dx $P \
  --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_stages=4,$W,TAIL_ROWS=32,use_tma_load_dy=1,dynamic_schedule=1" \
  --config "$DS" --config "$DS,dynamic_schedule=1" 2>&1 | grep -v Warning
} > "$OUT/interleaved.txt"
grep -E "^===|check|TF/s" "$OUT/interleaved.txt" | cut -c1-190
left=$(( 560 - ($(date +%s) - T0) ))
[ $left -gt 45 ] && timeout $left python3 benchmarks/power_probe.py --model mixtral-8x7b --gemm gate_up --seconds 4 \
  --config "$SHIP" --config "$FS,BLOCK_SIZE_K=64,num_stages=4,pregather=1" --config "$FS,BLOCK_SIZE_K=32,num_stages=7,pregather=1" \
  2>&1 | grep -v Warning > "$OUT/sustained.txt"
head -10 "$OUT/sustained.txt"
echo "total $(( $(date +%s) - T0 )) s"
