#!/bin/bash
# Call 8 (entry 41): index_select against a Triton row gather as the pregather, fwd and dW.
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
mkdir -p $OUT/call8
cp ws_run.sh gather_probe.py $OUT/call8/
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/call8/device.txt
W="BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,pregather=1"
D="BLOCK_SIZE_M=64,BLOCK_SIZE_N=128,BLOCK_SIZE_K=256,num_warps=8,use_tma_load_dy=1,use_tma_load_x=1,pregather=1,warp_specialize=1"
for spec in \
  "dw:llama4-scout:gate_up:4096:$D,GROUP_SIZE_M=8,num_stages=3,use_tma_store=1" \
  "fwd:mixtral-8x7b:gate_up:4096:$W,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1,warp_specialize=1" \
  "fwd:llama4-scout:gate_up:4096:$W,BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,num_stages=4,TAIL_ROWS=32,warp_specialize=1" \
  "fwd:gpt-oss-20b:gate_up:16384:$W,BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1,warp_specialize=1" \
  "fwd:mixtral-8x7b:gate_up:16384:$W,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=3,half_tail=1" \
  "fwd:llama4-scout:gate_up:16384:$W,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=4,half_tail=1" ; do
  timeout 110 python3 gather_probe.py 4 "$spec" 2>&1 | tee -a $OUT/call8/gather_probe.txt
done
