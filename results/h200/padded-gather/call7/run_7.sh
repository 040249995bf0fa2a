#!/bin/bash
# Call 7 (entry 41): zero pad rows against random pad rows against the packed layout, kernel only.
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
mkdir -p $OUT/call7
cp ws_run.sh zero_data_probe.py $OUT/call7/
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/call7/device.txt
C="BLOCK_SIZE_M=64,BLOCK_SIZE_N=128,BLOCK_SIZE_K=256,num_warps=8,use_tma_load_dy=1,use_tma_load_x=1,pregather=1,warp_specialize=1"
for spec in \
  "llama4-scout:gate_up:4096:$C,GROUP_SIZE_M=8,num_stages=3,use_tma_store=1" \
  "llama4-scout:down:4096:$C,GROUP_SIZE_M=8,num_stages=3,use_tma_store=1" \
  "deepseek-v3:gate_up:4096:$C,GROUP_SIZE_M=32,num_stages=3,use_tma_store=1" ; do
  timeout 100 python3 zero_data_probe.py 5 "$spec" 2>&1 | tee -a $OUT/call7/zero_data_probe.txt
done
