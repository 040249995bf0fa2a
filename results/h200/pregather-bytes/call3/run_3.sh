#!/bin/bash
# Call 3: pregather's token-major copy against index_select, alone and under the forward's pregather configs.
# Code: f58564e plus the working tree's gemmtune/kernels/pregather.py (pregather.patch).
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call3; mkdir -p $D
cp ws_run.sh pregather_probe.py pregather.patch $D/
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
G="GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,warp_specialize=1,num_stages=4,pregather=1,use_tma_load_x=1"
F128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,$G"
F256="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,$G"
timeout 200 python3 pregather_probe.py 5 copy:deepseek-v3:16384 copy:deepseek-v3:4096 copy:gpt-oss-20b:16384 \
  copy:gpt-oss-20b:4096 copy:mixtral-8x7b:16384 copy:qwen3-30b-a3b:16384 copy:olmoe-1b-7b:16384 2>&1 | tee -a $D/pregather_probe.txt
for spec in \
  "fwd:deepseek-v3:gate_up:16384:$F128,TAIL_ROWS=32,dynamic_schedule=1" \
  "fwd:gpt-oss-20b:gate_up:16384:$F256,TAIL_ROWS=32,dynamic_schedule=1" \
  "fwd:deepseek-v3:gate_up:4096:$F128,TAIL_ROWS=32,dynamic_schedule=1" \
  "fwd:mixtral-8x7b:gate_up:16384:$F256,TAIL_ROWS=32,dynamic_schedule=1" \
  "fwd:gpt-oss-20b:gate_up:4096:$F256,TAIL_ROWS=32,dynamic_schedule=1" \
  "fwd:qwen3-30b-a3b:gate_up:16384:$F128,TAIL_ROWS=32,dynamic_schedule=1" \
  ; do
  timeout 120 python3 pregather_probe.py 4 "$spec" 2>&1 | tee -a $D/pregather_probe.txt
done
