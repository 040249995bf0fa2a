#!/bin/bash
# Call 1 (uniform-control): the uniform loop and branch conditions (gemmtune.kernels.hopper_ws.warp_uniform) on
# one expert beside entry 56's dense probe, then three short suite shapes, each config divergent and uniform
# in one process (uniform_probe.py: checked, 6 interleaved rounds beside the torch baselines).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git status --short | grep -v "results/h200/" | head -20; } > "$OUT/device.txt"
export PYTHONPATH=benchmarks
P=results/h200/uniform-control/uniform_probe.py
G="GROUP_SIZE_M=8,use_tma_load_w=1"
F128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=8,$G,use_tma_load_x=1,warp_specialize=1"
F192="BLOCK_SIZE_M=192,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=12,num_stages=3,$G,use_tma_load_x=1,warp_specialize=1"
D128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_warps=8,$G,use_tma_load_dy=1,warp_specialize=1"
D192="BLOCK_SIZE_M=192,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_warps=12,num_stages=3,$G,use_tma_load_dy=1,warp_specialize=1"
run() {  # output-name, then uniform_probe.py's arguments
  local name=$1; shift
  timeout 200 python3 $P "$@" 2>&1 | grep -v Warning > "$OUT/$name.txt"
  cut -c1-150 "$OUT/$name.txt" | tail -9
  echo "$name done at $(( $(date +%s) - T0 )) s"
}
run one_expert --one-expert
run fwd_mixtral_gate_up_4096 --shape \
  "fwd:mixtral-8x7b:gate_up:4096:$F128,num_stages=4,TAIL_ROWS=32,pregather=1,dynamic_schedule=1;$F192,pregather=1"
run fwd_llama4_gate_up_16384 --shape \
  "fwd:llama4-scout:gate_up:16384:$F128,num_stages=4,pregather=1,dynamic_schedule=1;$F192,pregather=1"
run dx_mixtral_down_16384 --shape \
  "dx:mixtral-8x7b:down:16384:=BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_warps=8,num_stages=4,$G,use_tma_load_dy=1,pregather=1;$D128,num_stages=4,pregather=1;$D192,pregather=1"
echo "total $(( $(date +%s) - T0 )) s"
