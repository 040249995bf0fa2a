#!/bin/bash
# Call 2: the tail's wgmma issued before the tile's (probe 8) and split by W's halves and K steps of 16,
# interleaved (probe 16), against the tail skipped (probe 1) and as shipped (probe 0); tail_probe2.patch.
cd "$(dirname "$0")/../../.." || exit 1
git apply results/h200/tail-cost/tail_probe2.patch || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git diff --stat -- gemmtune; } > "$OUT/device.txt"
mkdir -p /tmp/routings
sizes() { python3 -c "import torch, sys; torch.save(torch.full(($1,), $2, dtype=torch.int32), sys.argv[1])" "/tmp/routings/$1x$2.pt"; }
WS="BLOCK_SIZE_K=64,num_warps=8,num_stages=4,use_tma_load_x=1,use_tma_load_w=1,pregather=1,warp_specialize=1,dynamic_schedule=1,TAIL_ROWS=32"
probe() { echo "=== $*"; timeout 150 python3 results/h200/tail-cost/tail_probe.py --gemm gate_up "$@" 2>&1 | grep -v Warning; }
sizes 8 1032; sizes 16 264
{ probe --model mixtral-8x7b --tokens 4128 --routing /tmp/routings/8x1032.pt --variants 0,1,8,16 --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,$WS"
  probe --model llama4-scout --tokens 4224 --routing /tmp/routings/16x264.pt --variants 0,1,8,16 --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,$WS"
  probe --model llama4-scout --tokens 4224 --routing /tmp/routings/16x264.pt --variants 0,1,8 --config "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,$WS"
  probe --model mixtral-8x7b --tokens 4096 --routing uniform --variants 0,1,8,16 --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,$WS"
  probe --model llama4-scout --tokens 4096 --routing uniform --variants 0,1,8 --config "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,$WS"
} > "$OUT/tail_probe2.txt"
git apply -R results/h200/tail-cost/tail_probe2.patch
