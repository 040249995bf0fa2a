#!/bin/bash
# Call 3 (docs/perf-notes.md entry 48): what a narrower merged tail saves where the kernel runs power-limited.
# mixtral-8x7b's two GEMMs with every expert at 136 rows (128 + an 8-row tail; M 544, topk 2, an m_sizes file),
# the 512-token best config with TAIL_ROWS 32, 16 and 8 (all merge the tail; the tail's wgmma is that many
# columns wide): interleaved timing with the torch baselines (ncu_probe.py --check --rounds), then each under
# 4 s of sustained load with the SM clock and power sampled (power_probe.py).
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call3; mkdir -p $D
cp results/h200/m512/narrow-tail/call3/run_3.sh $D/; git rev-parse HEAD > $D/commit.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
python3 -c "import torch; torch.save(torch.full((8,), 136, dtype=torch.int32), '/tmp/m136.pt')"
B="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=4,use_tma_load_w=1,use_tma_load_x=1,warp_specialize=1"
for gemm in gate_up down; do
  P=""; [ $gemm = gate_up ] && P=",pregather=1"
  A=(--model mixtral-8x7b --gemm $gemm --tokens 544 --routing /tmp/m136.pt
     --config "$B,TAIL_ROWS=32$P" --config "$B,TAIL_ROWS=16$P" --config "$B,TAIL_ROWS=8$P")
  timeout 150 python3 benchmarks/ncu_probe.py "${A[@]}" --check --rounds 6 --torch > $D/interleaved_$gemm.txt 2>&1
  echo "rc $?" >> $D/interleaved_$gemm.txt
  timeout 120 python3 benchmarks/power_probe.py "${A[@]}" --seconds 4 > $D/power_$gemm.txt 2>&1
  echo "rc $?" >> $D/power_$gemm.txt
done
grep -v "^  _\|void\|nvjet\|cutlass\|UserWarning\|_warn_once" $D/interleaved_*.txt $D/power_*.txt
