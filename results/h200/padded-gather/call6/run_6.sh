#!/bin/bash
# Call 6 (entry 41): padded gather, HEAD's zeroing and HEAD with the zeroing skipped, in one process per shape.
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
mkdir -p $OUT/call6
cp ws_run.sh pad_probe.py dw_ws_zeroing.py $OUT/call6/
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/call6/device.txt
C="BLOCK_SIZE_M=64,BLOCK_SIZE_N=128,BLOCK_SIZE_K=256,num_warps=8,use_tma_load_dy=1,use_tma_load_x=1,pregather=1,warp_specialize=1"
for spec in \
  "llama4-scout:gate_up:4096:$C,GROUP_SIZE_M=8,num_stages=3,use_tma_store=1" \
  "llama4-scout:down:4096:$C,GROUP_SIZE_M=8,num_stages=3,use_tma_store=1" \
  "deepseek-v3:gate_up:4096:$C,GROUP_SIZE_M=32,num_stages=3,use_tma_store=1" ; do
  timeout 100 python3 pad_probe.py 5 "$spec" 2>&1 | tee -a $OUT/call6/pad_probe.txt
done
