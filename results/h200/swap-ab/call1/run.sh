#!/bin/bash
# swap_ab, call 1: each shape's suite config against the same config computed transposed (swap_ab), checked
# against the reference, timed in 6 interleaved rounds beside the torch baselines (benchmarks/ncu_probe.py);
# then the GPU tests of the swapped tiles.
cd "$(dirname "$0")/../../../.." || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > "$OUT/pip.txt" 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; } > "$OUT/device.txt"
cd benchmarks
probe() { name=$1; shift; timeout 100 python3 ncu_probe.py --rounds 6 --torch --check "$@" > "$OUT/$name.txt" 2>&1; }
FWD256="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_warps=8,num_stages=4,TAIL_ROWS=32,use_tma_load_x=1,use_tma_load_w=1,warp_specialize=1"
DX256="BLOCK_SIZE_M=256,BLOCK_SIZE_N=64,BLOCK_SIZE_K=128,num_warps=8,num_stages=4,TAIL_ROWS=32,use_tma_load_dy=1,use_tma_load_w=1,warp_specialize=1"
probe llama4_fwd_gate_up_4096 --model llama4-scout --gemm gate_up --tokens 4096 \
  --config "$FWD256,pregather=1,dynamic_schedule=1" --config "$FWD256,pregather=1,dynamic_schedule=1,swap_ab=1"
probe llama4_dx_down_4096 --model llama4-scout --gemm down --tokens 4096 --mode dx \
  --config "$DX256,pregather=1" --config "$DX256,pregather=1,swap_ab=1"
probe llama4_fwd_down_4096 --model llama4-scout --gemm down --tokens 4096 \
  --config "$FWD256" --config "$FWD256,swap_ab=1"
probe gpt-oss_fwd_gate_up_4096 --model gpt-oss-20b --gemm gate_up --tokens 4096 \
  --config "$FWD256,pregather=1,dynamic_schedule=1" --config "$FWD256,pregather=1,dynamic_schedule=1,swap_ab=1"
probe llama4_dx_gate_up_4096 --model llama4-scout --gemm gate_up --tokens 4096 --mode dx \
  --config "$DX256" --config "$DX256,swap_ab=1"
# mixtral's gate_up at 4096 tokens: its suite config (128×256) against 256×128 tiles computed transposed
probe mixtral_fwd_gate_up_4096 --model mixtral-8x7b --gemm gate_up --tokens 4096 \
  --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=8,num_stages=4,TAIL_ROWS=32,use_tma_load_x=1,use_tma_load_w=1,pregather=1,dynamic_schedule=1,warp_specialize=1" \
  --config "$FWD256,pregather=1,dynamic_schedule=1,swap_ab=1"
cd ..
timeout $((570 - SECONDS)) python3 -m pytest -q -m gpu tests/test_gpu.py -k swap_ab -x -p no:cacheprovider > "$OUT/pytest_swap_ab.txt" 2>&1
echo "pytest rc $?" >> "$OUT/pytest_swap_ab.txt"
