#!/bin/bash
# Call 1 (wide-384): a 128x384 output block in the Gluon forward kernel, two accumulators of 256 and 128
# columns (192 fp32 registers per MMA thread), 11 % fewer operand bytes per flop than 128x256. Its 64 KB ring
# slots fit 3 stages at BLOCK_SIZE_K 64 (6 at 32). Per gate_up shape, one process: the shipped config, the
# Gluon 128x256 at 4 stages without tails (the control), 128x384 at 3 stages (static and dynamic schedule)
# and at BLOCK_SIZE_K 32 with 6 stages; checked, then 6 interleaved rounds beside the torch baselines. Then
# mixtral's gate_up at 16384 tokens under 4 s of sustained load each.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git status --short | grep -v "results/h200/" | head -20; } > "$OUT/device.txt"
export PYTHONPATH=benchmarks
W="GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,pregather=1"
WS="BLOCK_SIZE_K=64,$W,warp_specialize=1"
CONTROL="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=4,$WS"
S384="BLOCK_SIZE_M=128,BLOCK_SIZE_N=384,num_stages=3,$WS"
K32="BLOCK_SIZE_M=128,BLOCK_SIZE_N=384,BLOCK_SIZE_K=32,num_stages=6,$W,warp_specialize=1"
probe() {  # model tokens shipped-config output-name
  timeout 150 python3 benchmarks/ncu_probe.py --model "$1" --gemm gate_up --tokens "$2" --mode fwd --check --torch \
    --rounds 6 --config "$3" --config "$CONTROL" --config "$S384" --config "$S384,dynamic_schedule=1" \
    --config "$K32" 2>&1 | grep -v Warning > "$OUT/$4.txt"
  cut -c1-150 "$OUT/$4.txt" | tail -8
  echo "$4 done at $(( $(date +%s) - T0 )) s"
}
MIX16="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_stages=3,$W"
probe mixtral-8x7b 16384 "$MIX16" mixtral_16384
probe gpt-oss-20b 16384 "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=3,TAIL_ROWS=32,dynamic_schedule=1,$WS" gpt-oss_16384
probe llama4-scout 16384 "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_stages=3,half_tail=1,$W" llama4_16384
timeout 90 python3 benchmarks/power_probe.py --model mixtral-8x7b --gemm gate_up --tokens 16384 --mode fwd --seconds 4 \
  --config "$MIX16" --config "$CONTROL" --config "$S384" 2>&1 | grep -v Warning > "$OUT/sustained.txt"
head -8 "$OUT/sustained.txt"
echo "sustained done at $(( $(date +%s) - T0 )) s"
echo "total $(( $(date +%s) - T0 )) s"
