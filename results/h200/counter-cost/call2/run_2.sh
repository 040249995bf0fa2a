#!/bin/bash
# Device call 2 (EXPERIMENT, L2-side-aware counter): the counter's claims split into two sides, each with its
# own counter over alternating chunks of 64 tiles (GEMMTUNE_SIDE picks how a program finds its side: 1 program
# id halves, 2 %smid halves, 3 %smid parity, 5 TPC parity; 0 the shipped single counter). deepseek-v3 gate_up
# 16384, one process per side mode: static, counter, counter with merged tails; then Nsight Compute counters
# of the counter config (one launch).
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
mkdir -p $OUT/call2
G="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=3,use_tma_load_w=1,warp_specialize=1"
A=(--model deepseek-v3 --gemm gate_up --tokens 16384)
M="gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg.per_second,dram__bytes_read.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sector_hit_rate.pct"
for m in 0 1 2 3 5; do
  echo "## GEMMTUNE_SIDE=$m" | tee -a $OUT/call2/probe.txt
  GEMMTUNE_SIDE=$m timeout 150 python3 benchmarks/ncu_probe.py "${A[@]}" --check --rounds 3 --config "$G" \
    --config "$G,dynamic_schedule=1" --config "$G,dynamic_schedule=1,TAIL_ROWS=32" 2>&1 | grep -v "^$" \
    | tee -a $OUT/call2/probe.txt
  GEMMTUNE_SIDE=$m timeout 100 ncu --clock-control none -k regex:grouped_gemm --launch-skip 1 --launch-count 1 \
    --metrics $M python3 benchmarks/ncu_probe.py "${A[@]}" --config "$G,dynamic_schedule=1" --launches 2 2>&1 \
    | grep -E "^\s+(gpu__|sm__|dram__|lts__)" | tee -a $OUT/call2/ncu.txt
done
GEMMTUNE_SIDE=2 timeout 240 python3 -m pytest -q tests/test_gpu.py -k "warp_specialized_forward or merged_tail or warp_specialized_dx" 2>&1 | tail -3 | tee $OUT/call2/pytest_side2.txt
cp ws_run.sh $OUT/call2/run_2.sh
cd $OUT && tar czf call2.tgz call2 && rm -rf call2
