#!/bin/bash
# Call 1 (entry 41): the dW zeroing's cost bound on six dW suite shapes.
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
mkdir -p $OUT/call1
cp ws_run.sh zero_probe.py $OUT/call1/
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/call1/device.txt
C="BLOCK_SIZE_M=64,BLOCK_SIZE_N=128,BLOCK_SIZE_K=256,num_warps=8,use_tma_load_dy=1,use_tma_load_x=1,pregather=1,warp_specialize=1"
for spec in \
  "llama4-scout:gate_up:4096:$C,GROUP_SIZE_M=8,num_stages=3,use_tma_store=1" \
  "mixtral-8x7b:down:4096:$C,GROUP_SIZE_M=32,num_stages=3,use_tma_store=1" \
  "deepseek-v3:gate_up:4096:$C,GROUP_SIZE_M=32,num_stages=3,use_tma_store=1" \
  "mixtral-8x7b:down:16384:$C,GROUP_SIZE_M=32,num_stages=4" \
  "llama4-scout:down:16384:$C,GROUP_SIZE_M=32,num_stages=3,use_tma_store=1" \
  "llama4-scout:down:4096:$C,GROUP_SIZE_M=8,num_stages=3,use_tma_store=1" ; do
  timeout 120 python3 zero_probe.py 4 "$spec" 2>&1 | tee -a $OUT/call1/zero_probe.txt
done
