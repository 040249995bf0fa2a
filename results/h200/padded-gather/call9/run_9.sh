#!/bin/bash
# Call 9 (entry 41, review): the dW kernel's and the padded gather's GPU tests after the review's refactor.
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
mkdir -p $OUT/call9
cp ws_run.sh $OUT/call9/run_9.sh
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/call9/device.txt
echo "tree: 95cf953" > $OUT/call9/pytest_gpu.txt
timeout 200 python3 -m pytest -q tests/test_padded_gather.py tests/test_kernels_backward.py 2>&1 | tail -2 >> $OUT/call9/pytest_gpu.txt
timeout 300 python3 -m pytest -q tests/test_gpu.py -k "warp_specialized_dw" 2>&1 | tail -2 >> $OUT/call9/pytest_gpu.txt
python3 benchmarks/ncu_probe.py --model llama4-scout --gemm gate_up --tokens 4096 --mode dw --check --rounds 4 --torch \
  --config "BLOCK_SIZE_M=64,BLOCK_SIZE_N=128,BLOCK_SIZE_K=256,GROUP_SIZE_M=8,num_warps=8,num_stages=3,use_tma_load_dy=1,use_tma_load_x=1,use_tma_store=1,pregather=1,warp_specialize=1" 2>&1 | tee $OUT/call9/probe_llama4_gate_up_4096.txt
cat $OUT/call9/pytest_gpu.txt
