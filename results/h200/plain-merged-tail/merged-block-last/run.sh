#!/bin/bash
# Merged tails in the plain forward kernel, the merged block's tiles last in each expert: GPU correctness, timings, Nsight.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)" >> $OUT/device.txt
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -k "merged_tail and plain" > $OUT/pytest_merged_tail.txt 2>&1
timeout 60 python3 -m pytest -q tests/test_kernel_fwd.py >> $OUT/pytest_merged_tail.txt 2>&1
tail -3 $OUT/pytest_merged_tail.txt
B="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1"
P="use_tma_load_x=1,pregather=1"
probe() { echo "== $*"; python3 benchmarks/ncu_probe.py --rounds 6 --torch --mode fwd "$@" 2>&1 | grep -v Warning; }
{
probe --model mixtral-8x7b --gemm gate_up --tokens 4096 --config "$B,num_stages=4,$P,half_tail=1" \
  --config "$B,num_stages=4,$P,half_tail=1,TAIL_ROWS=16" --config "$B,num_stages=4,$P,half_tail=1,TAIL_ROWS=32"
probe --model mixtral-8x7b --gemm gate_up --tokens 16384 --config "$B,num_stages=3,$P" \
  --config "$B,num_stages=3,$P,TAIL_ROWS=16" --config "$B,num_stages=3,$P,TAIL_ROWS=32"
probe --model llama4-scout --gemm gate_up --tokens 4096 \
  --config "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=4,use_tma_load_w=1,$P,warp_specialize=1,TAIL_ROWS=32" \
  --config "$B,num_stages=4,$P,half_tail=1" --config "$B,num_stages=4,$P,half_tail=1,TAIL_ROWS=16" \
  --config "$B,num_stages=4,$P,half_tail=1,TAIL_ROWS=32"
probe --model llama4-scout --gemm gate_up --tokens 16384 --config "$B,num_stages=3,$P" \
  --config "$B,num_stages=3,$P,half_tail=1,TAIL_ROWS=16" --config "$B,num_stages=3,$P,half_tail=1,TAIL_ROWS=32"
probe --model deepseek-v3 --gemm gate_up --tokens 16384 --config "$B,num_stages=3" \
  --config "$B,num_stages=3,half_tail=1,TAIL_ROWS=16" --config "$B,num_stages=3,half_tail=1,TAIL_ROWS=32"
} > $OUT/timings.txt 2>&1
cat $OUT/timings.txt
B3="$B,num_stages=3"
i=0
for case in "mixtral-8x7b|$B3,$P,TAIL_ROWS=16" "deepseek-v3|$B3,half_tail=1,TAIL_ROWS=16"; do
  i=$((i+1)); model=${case%%|*}; cfg=${case#*|}
  echo "$i $model $cfg" >> $OUT/ncu_index.txt
  timeout 250 ncu --clock-control none -k regex:grouped_gemm_forward_kernel --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --metrics dram__bytes_read.sum,lts__t_sector_hit_rate.pct \
    python3 benchmarks/ncu_probe.py --model $model --gemm gate_up --tokens 16384 --config "$cfg" --launches 3 \
    > $OUT/ncu_$i.txt 2>&1
  grep -E "Duration|SM Frequency|dram__bytes_read|lts__t_sector_hit|Compute \(SM\)|^fwd" $OUT/ncu_$i.txt
done
