#!/bin/bash
# call 2 of entry 44 (padded-token-major), at the commit in the header plus the uncommitted padded_gather.py
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call2; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
cp results/h200/padded-token-major/call2/padded_probe.py ws_run.sh $D/
git rev-parse HEAD > $D/commit.txt; git diff -- gemmtune > $D/uncommitted.patch
git show 5e71d0b:gemmtune/kernels/padded_gather.py > /tmp/old_padded_gather.py
C="BLOCK_SIZE_M=64,BLOCK_SIZE_N=128,BLOCK_SIZE_K=256,num_warps=8,num_stages=3,use_tma_load_dy=1,use_tma_load_x=1,use_tma_store=1,pregather=1,warp_specialize=1"
timeout 570 python3 results/h200/padded-token-major/call2/padded_probe.py /tmp/old_padded_gather.py 6 \
  "dw:deepseek-v3:gate_up:16384:GROUP_SIZE_M=16,$C" \
  "dw:deepseek-v3:gate_up:4096:$C" \
  "dw:qwen3-30b-a3b:gate_up:16384:$C" \
  "dw:qwen3-30b-a3b:gate_up:4096:$C" \
  "dw:olmoe-1b-7b:gate_up:16384:GROUP_SIZE_M=16,$C" \
  "dw:olmoe-1b-7b:gate_up:4096:$C" \
  "dw:gpt-oss-20b:gate_up:16384:GROUP_SIZE_M=16,$C" \
  "dw:mixtral-8x7b:gate_up:4096:GROUP_SIZE_M=32,$C" \
  "dw:llama4-scout:gate_up:4096:GROUP_SIZE_M=32,$C" \
  "dw:llama4-scout:down:16384:GROUP_SIZE_M=32,$C" \
  "dw:mixtral-8x7b:down:16384:BLOCK_SIZE_M=64,BLOCK_SIZE_N=128,BLOCK_SIZE_K=256,GROUP_SIZE_M=16,num_warps=8,num_stages=4,use_tma_load_dy=1,use_tma_load_x=1,pregather=1,warp_specialize=1" \
  > $D/padded_probe.txt 2>&1
echo "rc $?" >> $D/padded_probe.txt
tail -4 $D/padded_probe.txt
