#!/bin/bash
# Call 2 (uniform-control): the GPU tests of the Gluon kernels (uniform control on, the default), then per shape
# the suite's shipped config divergent and uniform in one process (uniform_probe.py: checked, 6 interleaved
# rounds beside the torch baselines): the shapes that fall short, a few that do not, two dW; 192-row tiles
# (uniform) without and with the loader skipping the X slabs past an expert's end.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git status --short | grep -v "results/h200/" | head -20; } > "$OUT/device.txt"
timeout 280 python3 -m pytest -q -m gpu tests/test_gpu.py \
  -k "warp_specialized or merged_tail or split_output or three_warpgroup" 2>&1 | tail -8 > "$OUT/pytest_gluon.txt"
cat "$OUT/pytest_gluon.txt"; echo "tests done at $(( $(date +%s) - T0 )) s"
export PYTHONPATH=benchmarks
mkdir -p "$OUT/p"  # more than 8 files do not come back: the probes' outputs leave as one tar
P=results/h200/uniform-control/uniform_probe.py
G="GROUP_SIZE_M=8,use_tma_load_w=1"
WS="num_warps=8,warp_specialize=1"
F128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,$G,use_tma_load_x=1,$WS"
F256="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,$G,use_tma_load_x=1,$WS"
F192="BLOCK_SIZE_M=192,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=12,num_stages=3,$G,use_tma_load_x=1,warp_specialize=1"
D128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,$G,use_tma_load_dy=1,$WS"
D256="BLOCK_SIZE_M=256,BLOCK_SIZE_N=64,BLOCK_SIZE_K=128,$G,use_tma_load_dy=1,$WS"
D192="BLOCK_SIZE_M=192,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_warps=12,num_stages=3,$G,use_tma_load_dy=1,warp_specialize=1"
W64="BLOCK_SIZE_M=64,BLOCK_SIZE_N=128,BLOCK_SIZE_K=256,use_tma_load_dy=1,use_tma_load_x=1,pregather=1,$WS"
run() {  # output-name spec
  timeout 150 python3 $P --shape "$2" 2>&1 | grep -v Warning > "$OUT/p/$1.txt"
  cut -c1-150 "$OUT/p/$1.txt" | grep -v "check ok" | tail -8
  echo "$1 done at $(( $(date +%s) - T0 )) s"
}
{
run fwd_llama4_gate_up_4096 "fwd:llama4-scout:gate_up:4096:$F256,num_stages=4,TAIL_ROWS=32,pregather=1;$F192,pregather=1"
run fwd_mixtral_down_4096 "fwd:mixtral-8x7b:down:4096:$F128,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1;$F192"
run fwd_mixtral_gate_up_16384 \
  "fwd:mixtral-8x7b:gate_up:16384:=${F128/,$WS/,num_warps=8},num_stages=3,pregather=1;$F128,num_stages=4,pregather=1;$F192,pregather=1"
run fwd_mixtral_gate_up_4096 "fwd:mixtral-8x7b:gate_up:4096:$F128,num_stages=4,TAIL_ROWS=32,pregather=1,dynamic_schedule=1;$F192,pregather=1"
run dx_mixtral_gate_up_4096 "dx:mixtral-8x7b:gate_up:4096:$D128,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1;$D192"
run dx_mixtral_down_4096 "dx:mixtral-8x7b:down:4096:$D256,num_stages=4,TAIL_ROWS=32,pregather=1,dynamic_schedule=1"
run dx_llama4_down_4096 "dx:llama4-scout:down:4096:$D256,num_stages=4,TAIL_ROWS=32,pregather=1;$D192,pregather=1"
run dx_llama4_down_16384 \
  "dx:llama4-scout:down:16384:=${D128/,$WS/,num_warps=8},num_stages=3,pregather=1,half_tail=1;$D128,num_stages=4,pregather=1"
run fwd_qwen3_down_4096 "fwd:qwen3-30b-a3b:down:4096:$F128,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1"
run fwd_deepseek_gate_up_4096 "fwd:deepseek-v3:gate_up:4096:$F128,num_stages=4,TAIL_ROWS=32,pregather=1,dynamic_schedule=1"
run dx_qwen3_gate_up_4096 "dx:qwen3-30b-a3b:gate_up:4096:$D256,num_stages=4,TAIL_ROWS=32"
run dw_mixtral_down_16384 "dw:mixtral-8x7b:down:16384:$W64,GROUP_SIZE_M=16,num_stages=4"
run dw_llama4_down_16384 "dw:llama4-scout:down:16384:$W64,GROUP_SIZE_M=32,num_stages=3,use_tma_store=1"
} 2>&1
tar -C "$OUT" -czf "$OUT/probes.tar.gz" p && rm -r "$OUT/p"
echo "total $(( $(date +%s) - T0 )) s"
