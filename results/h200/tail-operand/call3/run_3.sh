#!/bin/bash
# Call 3 (tail-operand, docs/perf-notes.md entry 60): the suite's merged-tail configs against the same config with
# split_tail, one process per shape, checked, then timed with the torch baselines in 4 interleaved rounds.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
F=results/h200/tail-operand
D=$OUT/call3; mkdir -p $D
cp $F/run_3.sh $D/; git rev-parse HEAD > $D/commit.txt; git status --short | grep -v "^??" > $D/tree.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,temperature.gpu --format=csv > $D/device.txt
export PYTHONPATH=benchmarks
W="GROUP_SIZE_M=8,num_warps=8,warp_specialize=1,TAIL_ROWS=32"
FWD128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_stages=3,use_tma_load_w=1,use_tma_load_x=1,$W"
DX128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,use_tma_load_w=1,use_tma_load_dy=1,$W"
i=0
for spec in "fwd|mixtral-8x7b|gate_up|4096|$FWD128,pregather=1,dynamic_schedule=1" \
            "fwd|mixtral-8x7b|down|4096|$FWD128,dynamic_schedule=1" \
            "dx|mixtral-8x7b|down|4096|$DX128,num_stages=3,pregather=1,dynamic_schedule=1" \
            "fwd|olmoe-1b-7b|gate_up|4096|$FWD128,pregather=1,dynamic_schedule=1" \
            "dx|qwen3-30b-a3b|gate_up|16384|$DX128,num_stages=4,dynamic_schedule=1" \
            "fwd|deepseek-v3|down|16384|$FWD128,dynamic_schedule=1"; do
  IFS='|' read -r mode model gemm tokens cfg <<< "$spec"
  i=$((i+1)); out=$D/${i}_${mode}_${model}_${gemm}_${tokens}.txt
  timeout 100 python3 benchmarks/ncu_probe.py --model $model --gemm $gemm --mode $mode --tokens $tokens --rounds 4 \
    --check --torch --config "$cfg" --config "$cfg,split_tail=1" > $out 2>&1; echo "rc $?" >> $out
  grep -E "TF/s|check|rc" $out
done
