#!/bin/bash
# Device call 5: the Gluon forward kernel's register epilogue through row_store_layout (16-byte stores) —
# GPU tests first, then each shape timed with the new kernel and, in a second process, with the old one
# (ws_old_fwd_ws.py = fwd_ws.py at 6480790), each beside the plain kernel and torch.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
timeout 300 python3 -m pytest -q -m gpu tests/test_gpu.py -k "warp_specialized_forward or merged_tail or (predicted and fwd)" -rs 2>&1 | tail -15 | tee $OUT/pytest_gpu_fwd_ws.txt
B="GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,BLOCK_SIZE_K=64"
P="$B,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256"
G="$P,warp_specialize=1"
L="$B,BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,warp_specialize=1,TAIL_ROWS=32,num_stages=4"
probes() {  # $1: label
  cd benchmarks
  r() { echo "=== $1 $2"; shift 2; timeout 150 python3 ncu_probe.py --torch --check "$@" 2>&1 | grep -v Warning; }
  r $1 mixtral_gate_up_4096 --rounds 6 --model mixtral-8x7b --gemm gate_up --tokens 4096 --config "$P,pregather=1,num_stages=4,half_tail=1" \
    --config "$G,pregather=1,num_stages=4" --config "$G,pregather=1,num_stages=3,use_tma_store=1"
  r $1 mixtral_gate_up_16384 --rounds 6 --model mixtral-8x7b --gemm gate_up --tokens 16384 --config "$P,pregather=1,num_stages=3" \
    --config "$G,pregather=1,num_stages=4" --config "$G,pregather=1,num_stages=3,use_tma_store=1"
  r $1 llama4_gate_up_4096 --rounds 6 --model llama4-scout --gemm gate_up --tokens 4096 --config "$P,pregather=1,num_stages=4" \
    --config "$L,pregather=1"
  r $1 llama4_down_4096 --rounds 6 --model llama4-scout --gemm down --tokens 4096 --config "$P,num_stages=4" --config "$L"
  r $1 llama4_gate_up_16384 --rounds 6 --model llama4-scout --gemm gate_up --tokens 16384 --config "$P,pregather=1,num_stages=3" \
    --config "$G,pregather=1,num_stages=4"
  r $1 mixtral_gate_up_512 --rounds 8 --model mixtral-8x7b --gemm gate_up --tokens 512 --config "$P,pregather=1,num_stages=4" \
    --config "$G,pregather=1,num_stages=4,TAIL_ROWS=32"
  r $1 mixtral_down_512 --rounds 8 --model mixtral-8x7b --gemm down --tokens 512 --config "$P,num_stages=4" \
    --config "$G,num_stages=4,TAIL_ROWS=32"
  cd ..
}
probes new 2>&1 | tee $OUT/ab_new.txt
cp ws_old_fwd_ws.py gemmtune/kernels/fwd_ws.py
probes old 2>&1 | tee $OUT/ab_old.txt
