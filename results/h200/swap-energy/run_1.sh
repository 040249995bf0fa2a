#!/bin/bash
# Call 1 (swap-energy, entry 66): swap_ab under sustained load (swap_probe.py, fitted-copies' patch). Two 256x128
# suite configs, llama4-scout's forward gate_up at 4096 tokens (uniform and balanced routing) and its down GEMM at 4096:
# checked, 6 interleaved rounds, then 4 s each back to back with the SM clock and power.
# Prediction: if shared-memory operand reads cost energy per flop, swap_ab (a sixth fewer of them) runs at a higher SM
# clock at the same work per clock, 1-3 % more TF/s sustained; if they do not, the same TF/s.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
git apply results/h200/fitted-copies/fitted_copies.patch || { echo "patch did not apply"; exit 1; }
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P=results/h200/swap-energy/swap_probe.py
B="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=4,TAIL_ROWS=32"
B="$B,use_tma_load_w=1,use_tma_load_x=1,warp_specialize=1"
run() {  # name args...
  local name=$1; shift
  timeout 120 python3 $P "$@" > "$OUT/${name}_interleaved.txt" 2>&1
  echo "$name interleaved rc $? at $(( $(date +%s) - T0 )) s"; grep -v "^  \[" "$OUT/${name}_interleaved.txt" | cut -c1-200
  timeout 120 python3 $P "$@" --sustained 4 > "$OUT/${name}_sustained.txt" 2>&1
  echo "$name sustained rc $? at $(( $(date +%s) - T0 )) s"; cut -c1-200 "$OUT/${name}_sustained.txt"
}
run gate_up_uniform --shape "fwd:llama4-scout:gate_up:4096:$B,pregather=1"
run gate_up_balanced --shape "fwd:llama4-scout:gate_up:4096:$B,pregather=1" --routing balanced
run down_uniform --shape "fwd:llama4-scout:down:4096:$B,dynamic_schedule=1"
echo "all done at $(( $(date +%s) - T0 )) s"
