#!/bin/bash
# Call 2: the routed operand's gather inside the Gluon kernel (gather_ahead), against pregather and its bound.
# Code: f58564e plus gather_ahead.patch (experiment: gemmtune/kernels/gather_ahead.py is new, untracked).
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call2; mkdir -p $D
cp ws_run.sh gather_bound.py gather_ahead.patch gemmtune/kernels/gather_ahead.py $D/
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
G="GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,warp_specialize=1,num_stages=4,pregather=1"
F128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,use_tma_load_x=1,$G"
F256="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,use_tma_load_x=1,$G"
DX="BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,use_tma_load_dy=1,$G"
for spec in \
  "fwd:llama4-scout:gate_up:4096:$F256,TAIL_ROWS=32" \
  "dx:llama4-scout:down:4096:$DX,TAIL_ROWS=32,dynamic_schedule=1" \
  "fwd:deepseek-v3:gate_up:16384:$F128,TAIL_ROWS=32,dynamic_schedule=1" \
  "fwd:mixtral-8x7b:gate_up:16384:$F256,TAIL_ROWS=32,dynamic_schedule=1" \
  "fwd:llama4-scout:gate_up:16384:$F128,TAIL_ROWS=32,dynamic_schedule=1" \
  "fwd:gpt-oss-20b:gate_up:16384:$F256,TAIL_ROWS=32,dynamic_schedule=1" \
  "dx:mixtral-8x7b:down:16384:$DX,dynamic_schedule=1" \
  ; do
  timeout 120 python3 gather_bound.py 4 "$spec" 2>&1 | tee -a $D/gather_bound.txt
done
