#!/bin/bash
# Call 4: the GPU tests of the Gluon kernels' register stores after the 8-lane row store (entry 42).
# Code: 49b85ea plus the working tree's row-store change (git diff -- gemmtune tests, saved as lanes8.patch).
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call4; mkdir -p $D
cp ws_run.sh lanes8.patch $D/
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
K="(warp_specialized or merged_tail or predicted_shared) and not tma_store"
timeout 380 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py -k "$K and not loader_gather" 2>&1 | tail -15 > $D/pytest_pregather.txt
timeout 190 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py -k "$K and loader_gather" 2>&1 | tail -15 > $D/pytest_loader_gather.txt
cat $D/pytest_*.txt
