#!/bin/bash
# Call 1 (gluon-groups, docs/perf-notes.md entry 63): GROUP_SIZE_M 4, 8, 16 and 32 on the Gluon kernel's best
# configs of the forward shapes still below torch. The suite's fwd and dX spaces hold G8 only; entry 22 measured
# larger groups on the plain kernels (0.96-1.02x), never on the Gluon kernel, whose dynamic schedule runs 132
# consecutive tile ids at a time. Each shape: its suite config at each group size, checked, then 6 interleaved
# rounds with the torch baselines (benchmarks/ncu_probe.py).
# Prediction (entry 22's plain kernels): every group size within 2 % of G8; a gain only where W is read from DRAM
# again for each group of M blocks.
# (The call ran this script with a second half for four dX shapes behind an argument, not run: call 1's
# differences between group sizes with the same schedule sent the next call to retime-order instead.)
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
probe() {  # mode model gemm tokens suite-config-without-GROUP_SIZE_M
  local name=$1_$2_$3_$4 configs=()
  for g in 8 4 16 32; do configs+=(--config "$5,GROUP_SIZE_M=$g"); done
  timeout 150 python3 benchmarks/ncu_probe.py --mode "$1" --model "$2" --gemm "$3" --tokens "$4" --check --torch \
    --rounds 6 "${configs[@]}" > "$OUT/$name.txt" 2>&1
  echo "$name rc $?"; cut -c1-180 "$OUT/$name.txt" | grep -v "^\s*$"
}
F="BLOCK_SIZE_K=64,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,pregather=1,warp_specialize=1,TAIL_ROWS=32,num_stages=4"
probe fwd llama4-scout gate_up 4096 "$F,BLOCK_SIZE_M=256,BLOCK_SIZE_N=128"
probe fwd llama4-scout gate_up 16384 "$F,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,dynamic_schedule=1"
probe fwd mixtral-8x7b gate_up 16384 "$F,BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,dynamic_schedule=1"
echo "all done at $(( $(date +%s) - T0 )) s"
