#!/bin/bash
# Call 3: the Gluon forward/dX kernel with each tile stored under the next tile's first K step (A/B).
# Code: 49b85ea plus overlap.patch (8-lane row store, loader at 40 registers, the new MMA partition).
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call3; mkdir -p $D
cp ws_run.sh overlap_probe.py fwd_ws_head.py overlap.patch $D/
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
G="GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,warp_specialize=1"
F128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,$G"
F256="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,$G"
for spec in \
  "fwd:mixtral-8x7b:gate_up:4096:$F128,num_stages=4,TAIL_ROWS=32,use_tma_load_x=1,pregather=1,dynamic_schedule=1" \
  "fwd:gpt-oss-20b:gate_up:16384:$F256,num_stages=4,TAIL_ROWS=32,use_tma_load_x=1,pregather=1,dynamic_schedule=1" \
  "fwd:llama4-scout:gate_up:16384:$F128,num_stages=4,TAIL_ROWS=32,use_tma_load_x=1,pregather=1,dynamic_schedule=1" \
  "dx:mixtral-8x7b:down:4096:BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,GROUP_SIZE_M=8,num_warps=8,num_stages=4,TAIL_ROWS=32,use_tma_load_dy=1,use_tma_load_w=1,pregather=1,dynamic_schedule=1,warp_specialize=1" \
  "fwd:mixtral-8x7b:down:4096:$F128,num_stages=4,TAIL_ROWS=32,use_tma_load_x=1,dynamic_schedule=1" \
  "fwd:mixtral-8x7b:gate_up:16384:$F128,num_stages=4,use_tma_load_x=1,pregather=1,dynamic_schedule=1" \
  ; do
  timeout 240 python3 overlap_probe.py 4 "$spec" 2>&1 | tee -a $D/overlap_probe.txt
done
