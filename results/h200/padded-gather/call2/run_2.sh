#!/bin/bash
# Call 2 (entry 41): the padded gather's dW kernel against HEAD's zeroing kernel; GPU tests.
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
mkdir -p $OUT/call2
cp ws_run.sh pad_probe.py $OUT/call2/
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/call2/device.txt
timeout 240 python3 -m pytest -q tests/test_gpu.py -k "warp_specialized_dw" tests/test_padded_gather.py 2>&1 | tail -5 > $OUT/call2/pytest_dw_ws.txt
cat $OUT/call2/pytest_dw_ws.txt
C="BLOCK_SIZE_M=64,BLOCK_SIZE_N=128,BLOCK_SIZE_K=256,num_warps=8,use_tma_load_dy=1,use_tma_load_x=1,pregather=1,warp_specialize=1"
for spec in \
  "llama4-scout:gate_up:4096:$C,GROUP_SIZE_M=8,num_stages=3,use_tma_store=1" \
  "mixtral-8x7b:down:4096:$C,GROUP_SIZE_M=32,num_stages=3,use_tma_store=1" \
  "llama4-scout:down:4096:$C,GROUP_SIZE_M=8,num_stages=3,use_tma_store=1" \
  "deepseek-v3:gate_up:4096:$C,GROUP_SIZE_M=32,num_stages=3,use_tma_store=1" \
  "qwen3-30b-a3b:down:4096:$C,GROUP_SIZE_M=8,num_stages=3,use_tma_store=1" \
  "mixtral-8x7b:down:16384:$C,GROUP_SIZE_M=32,num_stages=4" \
  "llama4-scout:down:16384:$C,GROUP_SIZE_M=32,num_stages=3,use_tma_store=1" ; do
  timeout 120 python3 pad_probe.py 4 "$spec" 2>&1 | tee -a $OUT/call2/pad_probe.txt
done
