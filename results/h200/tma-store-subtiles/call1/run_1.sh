#!/bin/bash
# call 1 of entry 44 (tma-store-subtiles), at the commit in the header
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call1; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
cp results/h200/tma-store-subtiles/call1/store_probe.py ws_run.sh $D/
git rev-parse HEAD > $D/commit.txt; git diff > $D/uncommitted.patch
C="BLOCK_SIZE_K=64,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,pregather=1,warp_specialize=1"
X="BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_warps=8,use_tma_load_w=1,use_tma_load_dy=1,pregather=1,warp_specialize=1,dynamic_schedule=1"
timeout 560 python3 results/h200/tma-store-subtiles/call1/store_probe.py 6 \
  "fwd:mixtral-8x7b:gate_up:4096:BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1,$C" \
  "fwd:mixtral-8x7b:gate_up:16384:BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1,$C" \
  "fwd:llama4-scout:gate_up:4096:BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,num_stages=4,TAIL_ROWS=32,$C" \
  "fwd:llama4-scout:gate_up:16384:BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1,$C" \
  "fwd:deepseek-v3:gate_up:16384:BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=3,TAIL_ROWS=32,dynamic_schedule=1,$C" \
  "dx:mixtral-8x7b:down:16384:BLOCK_SIZE_M=128,num_stages=4,$X" \
  "dx:llama4-scout:down:4096:BLOCK_SIZE_M=128,num_stages=4,TAIL_ROWS=32,$X" \
  > $D/store_probe.txt 2>&1
echo "rc $?" >> $D/store_probe.txt
tail -5 $D/store_probe.txt
