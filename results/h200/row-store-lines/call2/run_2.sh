#!/bin/bash
# Call 2: the Gluon forward/dX register store with 4 or 8 lanes per row, beside the epilogue-skipped bound.
# Code: 49b85ea plus store_lanes.patch (experiment only).
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call2; mkdir -p $D
cp ws_run.sh epilogue_probe.py store_lanes.patch $D/
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
G="GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,warp_specialize=1"
F128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,$G"
F256="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,$G"
for spec in \
  "fwd:mixtral-8x7b:gate_up:4096:$F128,num_stages=4,TAIL_ROWS=32,use_tma_load_x=1,pregather=1,dynamic_schedule=1" \
  "fwd:gpt-oss-20b:gate_up:16384:$F256,num_stages=4,TAIL_ROWS=32,use_tma_load_x=1,pregather=1,dynamic_schedule=1" \
  "fwd:llama4-scout:gate_up:4096:$F256,num_stages=4,TAIL_ROWS=32,use_tma_load_x=1,pregather=1" \
  "fwd:llama4-scout:gate_up:16384:$F128,num_stages=4,TAIL_ROWS=32,use_tma_load_x=1,pregather=1,dynamic_schedule=1" \
  "fwd:mixtral-8x7b:gate_up:16384:$F128,num_stages=4,TAIL_ROWS=32,use_tma_load_x=1,pregather=1,dynamic_schedule=1" \
  "dx:mixtral-8x7b:down:4096:BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,GROUP_SIZE_M=8,num_warps=8,num_stages=4,TAIL_ROWS=32,use_tma_load_dy=1,use_tma_load_w=1,pregather=1,dynamic_schedule=1,warp_specialize=1" \
  "fwd:mixtral-8x7b:down:512:$F128,num_stages=4,TAIL_ROWS=32,use_tma_load_x=1" \
  "fwd:mixtral-8x7b:down:4096:$F128,num_stages=4,TAIL_ROWS=32,use_tma_load_x=1,dynamic_schedule=1" \
  ; do
  timeout 200 python3 epilogue_probe.py 4 "$spec" 2>&1 | tee -a $D/epilogue_probe.txt
done
