set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -2
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
git rev-parse HEAD > $OUT/head.txt; git status --short >> $OUT/head.txt
export PYTHONPATH=benchmarks
T="use_tma_load_w=1,use_tma_load_x=1,GROUP_SIZE_M=8,BLOCK_SIZE_K=64"
for routing in balanced uniform; do
  python3 benchmarks/ncu_probe.py --model mixtral-8x7b --gemm gate_up --tokens 512 --routing $routing --rounds 8 --torch \
    --config "$T,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_warps=8,num_stages=4,TAIL_ROWS=32,pregather=1,warp_specialize=1" \
    --config "$T,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_warps=8,num_stages=4,pregather=1,warp_specialize=1" \
    --config "$T,BLOCK_SIZE_M=64,BLOCK_SIZE_N=256,num_warps=4,num_stages=5,pregather=1" 2>&1 | grep -v Warning
  python3 benchmarks/ncu_probe.py --model mixtral-8x7b --gemm down --tokens 512 --routing $routing --rounds 8 --torch \
    --config "$T,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_warps=8,num_stages=4,TAIL_ROWS=32,warp_specialize=1" \
    --config "$T,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_warps=8,num_stages=4,warp_specialize=1" \
    --config "$T,BLOCK_SIZE_M=64,BLOCK_SIZE_N=256,num_warps=8,num_stages=5" 2>&1 | grep -v Warning
done > $OUT/routing_512.txt
cat $OUT/routing_512.txt
timeout 400 python3 -m pytest -q -m gpu tests/ -rs 2>&1 | tail -8 > $OUT/pytest_gpu.txt
cat $OUT/pytest_gpu.txt
