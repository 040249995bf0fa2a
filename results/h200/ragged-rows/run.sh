#!/bin/bash
# What ragged experts cost us and cuBLAS: llama4-scout's and mixtral-8x7b's gate_up forward with every expert
# given the same row count r (an m_sizes routing file), r a whole number of 256-row blocks, a few rows past
# it (a merged tail) or a few short of it (padding), beside the suite's uniform routing. One process per
# routing: each config checked against the reference, then 6 interleaved rounds with the torch baselines
# (benchmarks/ncu_probe.py). TF/s count the routed rows only.
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; } > "$OUT/device.txt"
cd benchmarks
mkdir -p /tmp/routings
sizes() { python3 -c "import torch, sys; torch.save(torch.full(($1,), $2, dtype=torch.int32), sys.argv[1])" "/tmp/routings/$1x$2.pt"; }
WS="BLOCK_SIZE_K=64,num_warps=8,num_stages=4,use_tma_load_x=1,use_tma_load_w=1,pregather=1,warp_specialize=1,dynamic_schedule=1"
L_TAIL256="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,TAIL_ROWS=32,$WS"        # llama4's suite config at 4096 tokens
L_TAIL128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,TAIL_ROWS=32,$WS"
L_WS256="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,$WS"
PLAIN="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=8,num_stages=4,use_tma_load_x=1,use_tma_load_w=1,pregather=1"
probe() { model=$1; routing=$2; tokens=$3; shift 3
  echo "=== $model gate_up fwd, tokens $tokens, routing $routing"
  timeout 120 python3 ncu_probe.py --model $model --gemm gate_up --tokens $tokens --routing $routing \
    --rounds 6 --torch --check "$@" 2>&1 | grep -v Warning
}
{ probe llama4-scout uniform 4096 --config "$L_TAIL256" --config "$L_TAIL128" --config "$L_WS256" --config "$PLAIN"
  for r in 256 264 280 248 232; do
    sizes 16 $r
    probe llama4-scout /tmp/routings/16x$r.pt $((16 * r)) --config "$L_TAIL256" --config "$L_TAIL128" \
      --config "$L_WS256" --config "$PLAIN"
  done; } > "$OUT/llama4.txt"
M_TAIL="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,TAIL_ROWS=32,$WS"   # mixtral's suite config at 4096 tokens
M_WS="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,$WS"
{ probe mixtral-8x7b uniform 4096 --config "$M_TAIL" --config "$M_WS" --config "$PLAIN"
  for r in 1024 1032 1048; do
    sizes 8 $r
    probe mixtral-8x7b /tmp/routings/8x$r.pt $((8 * r / 2)) --config "$M_TAIL" --config "$M_WS" --config "$PLAIN"
  done; } > "$OUT/mixtral.txt"
