#!/bin/bash
# Call 2-3 (three-warpgroups): the grouped kernel over 192-row tiles (gemmtune.kernels.fwd_ws3). Its GPU tests,
# then per shape one process against the suite's shipped config: checked, 6 interleaved rounds beside the torch
# baselines. Then mixtral's gate_up forward at 16384 tokens under 4 s of sustained load each.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git status --short | grep -v "results/h200/" | head -20; } > "$OUT/device.txt"
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -k "three_warpgroup" 2>&1 | tail -5 > "$OUT/pytest_three_wg.txt"
cat "$OUT/pytest_three_wg.txt"; echo "tests done at $(( $(date +%s) - T0 )) s"
export PYTHONPATH=benchmarks
mkdir -p "$OUT/p"  # more than 8 files do not come back: the probes' outputs leave as one tar
G="GROUP_SIZE_M=8,use_tma_load_w=1"
F192="BLOCK_SIZE_M=192,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=12,num_stages=3,$G,use_tma_load_x=1,warp_specialize=1"
D192="BLOCK_SIZE_M=192,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_warps=12,num_stages=3,$G,use_tma_load_dy=1,warp_specialize=1"
WS8="num_warps=8,warp_specialize=1"
probe() {  # model gemm tokens mode output-name config...
  local model=$1 gemm=$2 tokens=$3 mode=$4 name=$5; shift 5
  local args=(); for c in "$@"; do args+=(--config "$c"); done
  timeout 150 python3 benchmarks/ncu_probe.py --model "$model" --gemm "$gemm" --tokens "$tokens" --mode "$mode" \
    --check --torch --rounds 6 "${args[@]}" 2>&1 | grep -v Warning > "$OUT/p/$name.txt"
  cut -c1-150 "$OUT/p/$name.txt" | tail -6
  echo "$name done at $(( $(date +%s) - T0 )) s"
}
{
probe mixtral-8x7b gate_up 4096 fwd fwd_mixtral_gate_up_4096 \
  "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_stages=4,TAIL_ROWS=32,$G,use_tma_load_x=1,pregather=1,dynamic_schedule=1,$WS8" \
  "$F192,pregather=1"
probe mixtral-8x7b gate_up 16384 fwd fwd_mixtral_gate_up_16384 \
  "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=8,num_stages=3,$G,use_tma_load_x=1,pregather=1" \
  "$F192,pregather=1"
probe mixtral-8x7b down 4096 fwd fwd_mixtral_down_4096 \
  "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_stages=4,TAIL_ROWS=32,$G,use_tma_load_x=1,dynamic_schedule=1,$WS8" \
  "$F192"
probe llama4-scout gate_up 16384 fwd fwd_llama4_gate_up_16384 \
  "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_stages=4,$G,use_tma_load_x=1,pregather=1,dynamic_schedule=1,$WS8" \
  "$F192,pregather=1"
probe mixtral-8x7b down 16384 dx dx_mixtral_down_16384 \
  "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_warps=8,num_stages=4,$G,use_tma_load_dy=1,pregather=1" \
  "$D192,pregather=1"
probe llama4-scout down 16384 dx dx_llama4_down_16384 \
  "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_warps=8,num_stages=3,$G,use_tma_load_dy=1,pregather=1,half_tail=1" \
  "$D192,pregather=1"
probe mixtral-8x7b gate_up 4096 dx dx_mixtral_gate_up_4096 \
  "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_stages=4,TAIL_ROWS=32,$G,use_tma_load_dy=1,dynamic_schedule=1,$WS8" \
  "$D192"
} 2>&1
tar -C "$OUT" -czf "$OUT/probes.tar.gz" p && rm -r "$OUT/p"
echo "total $(( $(date +%s) - T0 )) s"
