#!/bin/bash
# Device call 4 (EXPERIMENT): the two-sided counter with each program's first tile static (its program id), the
# claims after it two-sided (tile = num_programs + side's chunk tile). deepseek-v3 gate_up 16384, loader gather,
# 128x256 s3, no tails: static and counter in one process per GEMMTUNE_SIDE (0 = shipped counter), then the
# Nsight counters of the counter config.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
mkdir -p $OUT/call4
G="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=3,use_tma_load_w=1,warp_specialize=1"
A=(--model deepseek-v3 --gemm gate_up --tokens 16384)
M="gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg.per_second,dram__bytes_read.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sector_hit_rate.pct"
for m in 1 2 0; do
  echo "## GEMMTUNE_SIDE=$m" | tee -a $OUT/call4/probe.txt
  GEMMTUNE_SIDE=$m timeout 100 python3 benchmarks/ncu_probe.py "${A[@]}" --check --rounds 3 --config "$G" \
    --config "$G,dynamic_schedule=1" 2>&1 | grep -v "^$" | tee -a $OUT/call4/probe.txt
  echo "## GEMMTUNE_SIDE=$m" >> $OUT/call4/ncu.txt
  GEMMTUNE_SIDE=$m timeout 60 ncu --clock-control none -k regex:grouped_gemm --launch-skip 1 --launch-count 1 \
    --metrics $M python3 benchmarks/ncu_probe.py "${A[@]}" --config "$G,dynamic_schedule=1" --launches 2 2>&1 \
    | grep -E "^\s+(gpu__|sm__|dram__|lts__)" | tee -a $OUT/call4/ncu.txt
done
cp ws_run.sh $OUT/call4/run_4.sh
cd $OUT && tar czf call4.tgz call4 && rm -rf call4
