#!/bin/bash
# Where a merged tail's time goes: tail_probe.py (with tail_probe.patch applied) on equal-size experts with a
# tail of 8 rows past a whole block, and on whole blocks as the control, for mixtral-8x7b's and llama4-scout's
# gate_up forward; and on the suite's uniform routing for mixtral at 4096 tokens.
cd "$(dirname "$0")/../../.." || exit 1
git apply results/h200/tail-cost/tail_probe.patch || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git diff --stat; } > "$OUT/device.txt"
mkdir -p /tmp/routings
sizes() { python3 -c "import torch, sys; torch.save(torch.full(($1,), $2, dtype=torch.int32), sys.argv[1])" "/tmp/routings/$1x$2.pt"; }
WS="BLOCK_SIZE_K=64,num_warps=8,num_stages=4,use_tma_load_x=1,use_tma_load_w=1,pregather=1,warp_specialize=1,dynamic_schedule=1,TAIL_ROWS=32"
probe() { echo "=== $*"; timeout 150 python3 results/h200/tail-cost/tail_probe.py --gemm gate_up "$@" 2>&1 | grep -v Warning; }
sizes 8 1032; sizes 8 1024; sizes 16 264
{ probe --model mixtral-8x7b --tokens 4128 --routing /tmp/routings/8x1032.pt --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,$WS"
  probe --model mixtral-8x7b --tokens 4096 --routing /tmp/routings/8x1024.pt --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,$WS"
  probe --model mixtral-8x7b --tokens 4096 --routing uniform --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,$WS"
  probe --model llama4-scout --tokens 4224 --routing /tmp/routings/16x264.pt --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,$WS"
  probe --model llama4-scout --tokens 4224 --routing /tmp/routings/16x264.pt --config "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,$WS"
} > "$OUT/tail_probe.txt"
git apply -R results/h200/tail-cost/tail_probe.patch
