#!/bin/bash
# Call 1 (uniform-loader): the suite's configs of ten shapes on three versions of the Gluon kernels in one process
# each (arms_probe.py: checked, 6 interleaved rounds beside the torch baselines): base (the kernels before this
# entry), loader (the loaders' coordinates and loop bounds made warp-uniform) and tree (that and the K loop in
# passes over the ring).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git status --short | grep -v "results/h200/" | head -20; } > "$OUT/device.txt"
export PYTHONPATH=benchmarks
D=results/h200/uniform-loader
P="$D/arms_probe.py --arm base=$D/arms/base --arm loader=$D/arms/loader"
WS="GROUP_SIZE_M=8,num_warps=8,warp_specialize=1"
F128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,use_tma_load_w=1,use_tma_load_x=1,$WS"
F256="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,use_tma_load_w=1,use_tma_load_x=1,$WS"
D128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,use_tma_load_dy=1,use_tma_load_w=1,$WS"
W64="BLOCK_SIZE_M=64,BLOCK_SIZE_N=128,BLOCK_SIZE_K=256,use_tma_load_dy=1,use_tma_load_x=1,use_tma_store=1,pregather=1,$WS"
mkdir -p "$OUT/p"
run() {  # output-name spec
  timeout 170 python3 $P --shape "$2" 2>&1 | grep -v Warning > "$OUT/p/$1.txt"
  cut -c1-150 "$OUT/p/$1.txt" | grep -v "check ok" | tail -7
  echo "$1 done at $(( $(date +%s) - T0 )) s"
}
{
run fwd_mixtral_gate_up_4096 "fwd:mixtral-8x7b:gate_up:4096:$F128,num_stages=4,TAIL_ROWS=32,pregather=1,dynamic_schedule=1"
run fwd_llama4_gate_up_4096 "fwd:llama4-scout:gate_up:4096:$F256,num_stages=4,TAIL_ROWS=32,pregather=1,dynamic_schedule=1"
run fwd_mixtral_down_16384 "fwd:mixtral-8x7b:down:16384:$F128,num_stages=3"
run dx_mixtral_gate_up_4096 "dx:mixtral-8x7b:gate_up:4096:$D128,num_stages=3,TAIL_ROWS=32,dynamic_schedule=1"
run dx_llama4_down_16384 \
  "dx:llama4-scout:down:16384:=${D128/,$WS/,num_warps=8},num_stages=3,pregather=1,use_tma_store=1;$D128,num_stages=3,pregather=1"
run dw_mixtral_down_16384 "dw:mixtral-8x7b:down:16384:$W64,num_stages=3"
run fwd_mixtral_gate_up_16384 "fwd:mixtral-8x7b:gate_up:16384:${F128/BLOCK_SIZE_N=256/BLOCK_SIZE_N=384},num_stages=3,pregather=1"
run fwd_mixtral_down_4096 "fwd:mixtral-8x7b:down:4096:$F128,num_stages=3,TAIL_ROWS=32,dynamic_schedule=1"
run dx_mixtral_down_16384 "dx:mixtral-8x7b:down:16384:$D128,num_stages=4,TAIL_ROWS=32,pregather=1,dynamic_schedule=1"
run dw_llama4_gate_up_4096 "dw:llama4-scout:gate_up:4096:$W64,num_stages=3"
} 2>&1
tar -C "$OUT" -czf "$OUT/probes.tar.gz" p && rm -r "$OUT/p"
echo "total $(( $(date +%s) - T0 )) s"
