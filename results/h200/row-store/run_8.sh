#!/bin/bash
# Device call 8: dW's Gluon kernel storing from registers (4 stages, no TMA store), new 16-byte row stores
# against the old accumulator-layout stores (ws_old_dw_ws.py = dw_ws.py at ff944cc) in a second process,
# each beside the suite's config (3 stages, TMA store) and torch.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
B="BLOCK_SIZE_M=64,BLOCK_SIZE_N=128,BLOCK_SIZE_K=256,num_warps=8,use_tma_load_dy=1,use_tma_load_x=1,pregather=1,warp_specialize=1"
probes() {
  cd benchmarks
  r() {  # label, name, GROUP_SIZE_M, then problem arguments
    echo "=== $1 $2"; g=$3; shift 3
    timeout 100 python3 ncu_probe.py --mode dw --rounds 6 --torch --check "$@" --config "$B,GROUP_SIZE_M=$g,num_stages=3,use_tma_store=1" \
      --config "$B,GROUP_SIZE_M=$g,num_stages=4" 2>&1 | grep -v Warning
  }
  r $1 mixtral_gate_up_4096 8 --model mixtral-8x7b --gemm gate_up --tokens 4096
  r $1 mixtral_down_4096 32 --model mixtral-8x7b --gemm down --tokens 4096
  r $1 llama4_down_16384 32 --model llama4-scout --gemm down --tokens 16384
  cd ..
}
probes new 2>&1 | tee $OUT/dw_ab_new.txt
cp ws_old_dw_ws.py gemmtune/kernels/dw_ws.py
probes old 2>&1 | tee $OUT/dw_ab_old.txt
