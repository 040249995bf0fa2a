#!/bin/bash
# Device call 2 (entry 39, dX on the forward's Gluon kernel): the dX GPU tests of that kernel, then one process
# per shape: the suite's best plain dX config against Gluon configs with and without merged tails and the
# atomic counter, on the dX suite shapes that fall short (mixtral-8x7b at 4096 tokens, llama4-scout down at 16384).
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
mkdir -p $OUT/call2
timeout 330 python3 -m pytest -q tests/test_gpu.py -k "warp_specialized_dx" 2>&1 | tail -4 | tee $OUT/call2/pytest_ws_dx.txt
probe() {  # label, then ncu_probe arguments
  label=$1; shift
  echo "## $label" | tee -a $OUT/call2/probes.txt
  (cd benchmarks && timeout 120 python3 ncu_probe.py "$@" --check --rounds 4 --torch) 2>&1 | grep -v "^$" | tee -a $OUT/call2/probes.txt
}
B="BLOCK_SIZE_N=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_dy=1,use_tma_load_w=1"
W="BLOCK_SIZE_M=128,BLOCK_SIZE_K=256,$B,warp_specialize=1"
V="BLOCK_SIZE_M=256,BLOCK_SIZE_K=128,$B,warp_specialize=1"
probe "mixtral-8x7b dx down 4096" --model mixtral-8x7b --gemm down --tokens 4096 --mode dx \
  --config "BLOCK_SIZE_M=128,BLOCK_SIZE_K=256,$B,num_stages=4,pregather=1" \
  --config "$W,pregather=1,num_stages=4" --config "$W,pregather=1,num_stages=4,TAIL_ROWS=32" \
  --config "$W,pregather=1,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1" --config "$V,pregather=1,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1"
probe "mixtral-8x7b dx gate_up 4096" --model mixtral-8x7b --gemm gate_up --tokens 4096 --mode dx \
  --config "BLOCK_SIZE_M=128,BLOCK_SIZE_K=256,$B,num_stages=4,half_tail=1" \
  --config "$W,num_stages=4" --config "$W,num_stages=4,TAIL_ROWS=32" \
  --config "$W,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1" --config "$V,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1"
probe "llama4-scout dx down 16384" --model llama4-scout --gemm down --tokens 16384 --mode dx \
  --config "BLOCK_SIZE_M=128,BLOCK_SIZE_K=256,$B,num_stages=4,pregather=1,half_tail=1" \
  --config "$W,pregather=1,num_stages=4" --config "$W,pregather=1,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1" \
  --config "$V,pregather=1,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1"
cd $OUT && tar czf call2.tgz call2 && rm -rf call2
