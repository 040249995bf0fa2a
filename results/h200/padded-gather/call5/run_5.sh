#!/bin/bash
# Call 5 (entry 41): the GPU tests that call 4's time limit cut off (dX and dW on the Gluon kernels, the
# backward kernels, the padded gather).
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
mkdir -p $OUT/call5
cp ws_run.sh $OUT/call5/run_5.sh
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/call5/device.txt
echo "tree: ccc802c" > $OUT/call5/pytest_gpu.txt
timeout 150 python3 -m pytest -q tests/test_kernels_backward.py tests/test_padded_gather.py 2>&1 | tail -3 >> $OUT/call5/pytest_gpu.txt
timeout 400 python3 -m pytest -q tests/test_gpu.py -k "warp_specialized_dx or warp_specialized_dw" 2>&1 | tail -3 >> $OUT/call5/pytest_gpu.txt
cat $OUT/call5/pytest_gpu.txt
