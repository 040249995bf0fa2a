#!/bin/bash
# Call 4 (wide-tile): the split 256x192 block where no expert pads. Under the suite's uniform routing mixtral's
# experts hold 1024 +- a few dozen rows, so a 256-row tile without merged tails computes up to a fifth block
# of padding on every expert past 1024 rows; balanced routing gives each exactly 1024 rows (whole blocks for
# every tile here). mixtral's gate_up forward at 4096 tokens, one process: checked, 6 interleaved rounds; then
# 4 s of sustained load each, clock and power sampled.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git status --short | head -20; } > "$OUT/device.txt"
export PYTHONPATH=benchmarks
W="BLOCK_SIZE_K=64,num_warps=8,use_tma_load_w=1,GROUP_SIZE_M=8,warp_specialize=1,use_tma_load_x=1,pregather=1"
CFGS=(--config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1,$W"
      --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=4,$W"
      --config "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,num_stages=4,$W"
      --config "BLOCK_SIZE_M=256,BLOCK_SIZE_N=192,num_stages=3,$W"
      --config "BLOCK_SIZE_M=256,BLOCK_SIZE_N=192,num_stages=4,$W")
P="--model mixtral-8x7b --gemm gate_up --mode fwd --routing balanced"
timeout 200 python3 benchmarks/ncu_probe.py $P --check --torch --rounds 6 "${CFGS[@]}" 2>&1 | grep -v Warning > "$OUT/interleaved.txt"
cut -c1-190 "$OUT/interleaved.txt"
timeout 200 python3 benchmarks/power_probe.py $P --seconds 4 "${CFGS[@]}" 2>&1 | grep -v Warning > "$OUT/sustained.txt"
head -12 "$OUT/sustained.txt"
echo "total $(( $(date +%s) - T0 )) s"
