#!/bin/bash
# Call 4: pregather's token-major copy, again on the forward shapes where call 3 left it unclear (8 rounds),
# and the GPU tests of the pregathered forward, dX and dW configs.
# Code: f58564e plus pregather.patch (the working tree's gemmtune/kernels/pregather.py).
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call4; mkdir -p $D
cp ws_run.sh pregather_probe.py pregather.patch $D/
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
timeout 240 python3 -m pytest -q tests/test_gpu.py -k "pregather or dw" -p no:cacheprovider 2>&1 | tail -5 > $D/pytest_gpu_pregather.txt
G="GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,warp_specialize=1,num_stages=4,pregather=1,use_tma_load_x=1"
F128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,$G"
F256="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,$G"
for spec in \
  "fwd:gpt-oss-20b:gate_up:4096:$F256,TAIL_ROWS=32,dynamic_schedule=1" \
  "fwd:mixtral-8x7b:gate_up:16384:$F256,TAIL_ROWS=32,dynamic_schedule=1" \
  "fwd:mixtral-8x7b:gate_up:4096:$F128,TAIL_ROWS=32,dynamic_schedule=1" \
  "fwd:olmoe-1b-7b:gate_up:16384:$F128,TAIL_ROWS=32,dynamic_schedule=1" \
  "fwd:qwen3-30b-a3b:gate_up:4096:$F128,TAIL_ROWS=32,dynamic_schedule=1" \
  "fwd:deepseek-v3:gate_up:16384:$F128,TAIL_ROWS=32,dynamic_schedule=1" \
  ; do
  timeout 100 python3 pregather_probe.py 8 "$spec" 2>&1 | tee -a $D/pregather_probe.txt
done
