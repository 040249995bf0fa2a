#!/bin/bash
# Call 1 (wide-tile): the Gluon kernel with an output block of 192 columns split into accumulators of 128 and 64
# (256x192 tiles: 22 % fewer operand bytes per flop than 128x256). The GPU tests of split blocks; then, per
# shape that falls short, one process: the suite's shipped config and the split block (static and dynamic
# schedule), checked against the reference, then timed with the torch baselines in 6 interleaved rounds;
# then mixtral's gate_up forward at 4096 tokens under 4 s of sustained load each, clock and power sampled.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git status --short | head -20; } > "$OUT/device.txt"
timeout 120 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider -k split_output_block > "$OUT/pytest_gpu.txt" 2>&1
echo "pytest rc $? in $(( $(date +%s) - T0 )) s" >> "$OUT/pytest_gpu.txt"
tail -3 "$OUT/pytest_gpu.txt"
export PYTHONPATH=benchmarks
W="num_warps=8,use_tma_load_w=1,GROUP_SIZE_M=8"
FS="BLOCK_SIZE_M=256,BLOCK_SIZE_N=192,BLOCK_SIZE_K=64,num_stages=3,$W,use_tma_load_x=1,warp_specialize=1"
DS="BLOCK_SIZE_M=256,BLOCK_SIZE_N=64,BLOCK_SIZE_K=192,num_stages=3,$W,use_tma_load_dy=1,warp_specialize=1"
probe() {  # model gemm mode shipped split
  left=$(( 560 - ($(date +%s) - T0) ))
  [ $left -lt 40 ] && { echo "=== no time left for $*"; return; }
  echo "=== $1 $2 $3"
  timeout $(( left < 75 ? left : 75 )) python3 benchmarks/ncu_probe.py --model $1 --gemm $2 --mode $3 --check --torch --rounds 6 \
    --config "$4" --config "$5" --config "$5,dynamic_schedule=1" 2>&1 | grep -v Warning
}
{
probe mixtral-8x7b gate_up fwd "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_stages=4,$W,TAIL_ROWS=32,use_tma_load_x=1,pregather=1,dynamic_schedule=1,warp_specialize=1" "$FS,pregather=1"
probe mixtral-8x7b down fwd "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_stages=4,$W,use_tma_load_x=1,half_tail=1" "$FS"
probe mixtral-8x7b gate_up dx "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_stages=4,$W,TAIL_ROWS=32,use_tma_load_dy=1,dynamic_schedule=1,warp_specialize=1" "$DS"
probe mixtral-8x7b down dx "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_stages=4,$W,TAIL_ROWS=32,use_tma_load_dy=1,pregather=1,dynamic_schedule=1,warp_specialize=1" "$DS,pregather=1"
probe llama4-scout down dx "BLOCK_SIZE_M=256,BLOCK_SIZE_N=64,BLOCK_SIZE_K=128,num_stages=4,$W,TAIL_ROWS=32,use_tma_load_dy=1,pregather=1,dynamic_schedule=1,warp_specialize=1" "$DS,pregather=1"
probe llama4-scout gate_up fwd "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_stages=4,$W,TAIL_ROWS=32,use_tma_load_x=1,pregather=1,warp_specialize=1" "$FS,pregather=1"
} > "$OUT/interleaved.txt"
grep -E "^===|check|TF/s" "$OUT/interleaved.txt" | cut -c1-200
left=$(( 580 - ($(date +%s) - T0) ))
[ $left -gt 45 ] && timeout $left python3 benchmarks/power_probe.py --model mixtral-8x7b --gemm gate_up --seconds 4 \
  --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_stages=4,$W,TAIL_ROWS=32,use_tma_load_x=1,pregather=1,dynamic_schedule=1,warp_specialize=1" \
  --config "$FS,pregather=1" --config "$FS,pregather=1,dynamic_schedule=1" 2>&1 | grep -v Warning > "$OUT/sustained.txt"
cat "$OUT/sustained.txt" | head -12
echo "total $(( $(date +%s) - T0 )) s"
