#!/bin/bash
# Call 2 (wide-384): the split-block GPU tests (192, 320 and 384 columns); then gpt-oss-20b, whose 2,880 and
# 5,760 are whole numbers of 320- and 384-column blocks but not of 256: per shape one process, the suite's
# shipped config against 128x320 / 128x384 at 3 stages (static and dynamic schedule), checked, 6 interleaved
# rounds beside the torch baselines; then the whole GPU suite.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git status --short | grep -v "results/h200/" | head -20; } > "$OUT/device.txt"
timeout 120 python3 -m pytest -q -m gpu tests/test_gpu.py -k split 2>&1 | tail -15 > "$OUT/pytest_split.txt"
tail -2 "$OUT/pytest_split.txt"
echo "split tests done at $(( $(date +%s) - T0 )) s"
export PYTHONPATH=benchmarks
S3="BLOCK_SIZE_M=128,num_stages=3,num_warps=8,GROUP_SIZE_M=8,use_tma_load_w=1,warp_specialize=1"
probe() {  # model gemm tokens mode shipped-config split-config...
  local model=$1 gemm=$2 tokens=$3 mode=$4; shift 4
  local args=()
  for c in "$@"; do args+=(--config "$c"); done
  timeout 100 python3 benchmarks/ncu_probe.py --model "$model" --gemm "$gemm" --tokens "$tokens" --mode "$mode" \
    --check --torch --rounds 6 "${args[@]}" 2>&1 | grep -v Warning >> "$OUT/probes.txt"
  echo "$model $gemm $tokens $mode done at $(( $(date +%s) - T0 )) s"
}
WS="BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,warp_specialize=1"
DOWN320="BLOCK_SIZE_N=320,BLOCK_SIZE_K=64,use_tma_load_x=1,$S3"
probe gpt-oss-20b down 16384 fwd "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1,$WS" \
  "$DOWN320" "$DOWN320,dynamic_schedule=1"
probe gpt-oss-20b down 4096 fwd "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1,$WS" \
  "$DOWN320" "$DOWN320,dynamic_schedule=1"
UP="BLOCK_SIZE_K=64,use_tma_load_x=1,pregather=1,$S3"
probe gpt-oss-20b gate_up 4096 fwd \
  "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1,pregather=1,$WS" \
  "BLOCK_SIZE_N=384,$UP" "BLOCK_SIZE_N=384,dynamic_schedule=1,$UP" "BLOCK_SIZE_N=320,$UP"
DX="BLOCK_SIZE_N=64,BLOCK_SIZE_K=320,use_tma_load_dy=1,$S3"
probe gpt-oss-20b gate_up 16384 dx "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_stages=3,num_warps=8,GROUP_SIZE_M=8,use_tma_load_dy=1,use_tma_load_w=1,warp_specialize=1" \
  "$DX" "$DX,dynamic_schedule=1"
probe gpt-oss-20b down 16384 dx "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_stages=3,num_warps=8,GROUP_SIZE_M=8,use_tma_load_w=1,use_tma_store=1" \
  "$DX,pregather=1" "$DX,pregather=1,dynamic_schedule=1"
grep -v "check ok" "$OUT/probes.txt" | cut -c1-150
timeout 330 python3 -m pytest -q -m gpu tests/ 2>&1 | tail -15 > "$OUT/pytest_gpu.txt"
tail -2 "$OUT/pytest_gpu.txt"
echo "total $(( $(date +%s) - T0 )) s"
