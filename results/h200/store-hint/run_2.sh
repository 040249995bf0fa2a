#!/bin/bash
# Call 2: what the stores cost on the two forward gate_up GEMMs that fall short. Sustained load (clock and power)
# with the stores as shipped (0), as st.global.cs (2) and skipped (4); Nsight Compute over one launch of 0 and
# 4 (mixtral); and the interleaved A/B of call 1 again in fresh processes. store_hint.patch applied.
cd "$(dirname "$0")/../../.." || exit 1
git apply results/h200/store-hint/store_hint.patch || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git diff --stat -- gemmtune; } > "$OUT/device.txt"
F="BLOCK_SIZE_K=64,num_warps=8,use_tma_load_w=1,GROUP_SIZE_M=8,num_stages=4,TAIL_ROWS=32,use_tma_load_x=1,pregather=1,warp_specialize=1"
MIX="--model mixtral-8x7b --gemm gate_up --mode fwd"
MIXC="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,$F,dynamic_schedule=1"
LL="--model llama4-scout --gemm gate_up --mode fwd"
LLC="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,$F"
D=results/h200/store-hint
{ timeout 100 python3 $D/store_hint_power.py $MIX --config "$MIXC" --variants 0,4,2
  timeout 100 python3 $D/store_hint_power.py $LL --config "$LLC" --variants 0,4,2; } 2>&1 | grep -v Warning > "$OUT/power.txt"
METRICS="--metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_elapsed.max,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,lts__t_bytes.sum,smsp__inst_executed.sum"
{ for v in 0 4 2; do
    echo "=== GEMMTUNE_STORE_HINT=$v"
    GEMMTUNE_STORE_HINT=$v PYTHONPATH=benchmarks timeout 100 ncu --clock-control none -k regex:grouped_gemm \
      --launch-skip 1 --launch-count 1 $METRICS python3 benchmarks/ncu_probe.py $MIX --config "$MIXC" --launches 2
  done; } > "$OUT/ncu.txt" 2>&1
{ timeout 100 python3 $D/store_hint_probe.py $MIX --config "$MIXC" --variants 0,2,4
  timeout 100 python3 $D/store_hint_probe.py $LL --config "$LLC" --variants 0,2,4; } 2>&1 | grep -v Warning > "$OUT/store_hint_2.txt"
git apply -R results/h200/store-hint/store_hint.patch
cat "$OUT/power.txt"; grep -E "===|duration|per_second|cycles_elapsed.max|hmma|dram__bytes|hit_rate|lts__t_bytes|inst_executed" "$OUT/ncu.txt"
grep -v "^hint" "$OUT/store_hint_2.txt" | cut -c1-160
