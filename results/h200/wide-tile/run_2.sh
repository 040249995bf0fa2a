#!/bin/bash
# Call 2 (wide-tile): why the split 256x192 block does less work per clock. mixtral's gate_up forward at 4096
# tokens, one process: the shipped config; 256x192 at 3 stages (the most that fit); 128x192 at 4 stages (the
# same split, two accumulators of 128 and 64 columns, one 64-row slab per warpgroup, with the shipped ring
# depth); the unsplit 256x128 and 128x256 at 3 stages. Checked, 6 interleaved rounds; then 4 s of sustained
# load each with clock and power sampled (TF/s per GHz is the work per clock).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git status --short | head -20; } > "$OUT/device.txt"
export PYTHONPATH=benchmarks
W="BLOCK_SIZE_K=64,num_warps=8,use_tma_load_w=1,GROUP_SIZE_M=8,use_tma_load_x=1,pregather=1,warp_specialize=1"
CFGS=(--config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1,$W"
      --config "BLOCK_SIZE_M=256,BLOCK_SIZE_N=192,num_stages=3,$W"
      --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=192,num_stages=4,$W"
      --config "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,num_stages=3,$W"
      --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=3,$W")
P="--model mixtral-8x7b --gemm gate_up --mode fwd"
timeout 200 python3 benchmarks/ncu_probe.py $P --check --torch --rounds 6 "${CFGS[@]}" 2>&1 | grep -v Warning > "$OUT/interleaved.txt"
cut -c1-190 "$OUT/interleaved.txt"
timeout 200 python3 benchmarks/power_probe.py $P --seconds 4 "${CFGS[@]}" 2>&1 | grep -v Warning > "$OUT/sustained.txt"
head -12 "$OUT/sustained.txt"
echo "total $(( $(date +%s) - T0 )) s"
