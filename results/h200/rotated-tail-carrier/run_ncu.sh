#!/bin/bash
# Nsight Compute on the plain kernel with rotated tail carriers: DRAM bytes, L2 hit rate and duration with
# and without TAIL_ROWS 16 at 16384 tokens, one launch each; then llama4-scout's gate_up at 16384 timed.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
B="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=3,use_tma_load_w=1"
i=0
for case in "mixtral-8x7b|$B,use_tma_load_x=1,pregather=1" "mixtral-8x7b|$B,use_tma_load_x=1,pregather=1,TAIL_ROWS=16" \
            "deepseek-v3|$B" "deepseek-v3|$B,half_tail=1,TAIL_ROWS=16"; do
  i=$((i+1)); model=${case%%|*}; cfg=${case#*|}
  echo "$i $model $cfg" >> $OUT/ncu_index.txt
  timeout 120 ncu --clock-control none -k regex:grouped_gemm_forward_kernel --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --metrics dram__bytes_read.sum,lts__t_sector_hit_rate.pct \
    python3 benchmarks/ncu_probe.py --model $model --gemm gate_up --tokens 16384 --config "$cfg" --launches 3 \
    > $OUT/ncu_$i.txt 2>&1
  grep -E "Duration|dram__bytes_read|lts__t_sector_hit|^fwd" $OUT/ncu_$i.txt
done
P="use_tma_load_x=1,pregather=1"
timeout 150 python3 benchmarks/ncu_probe.py --rounds 6 --torch --mode fwd --model llama4-scout --gemm gate_up --tokens 16384 \
  --config "$B,$P" --config "$B,$P,half_tail=1,TAIL_ROWS=16" --config "$B,$P,half_tail=1,TAIL_ROWS=32" 2>&1 \
  | grep -v Warning > $OUT/timings_llama4.txt
cat $OUT/timings_llama4.txt
