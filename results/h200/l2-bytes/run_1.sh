#!/bin/bash
# Call 1: what the L2 bytes cost under the power limit. The tree carries l2_probe.patch: GEMMTUNE_L2_PROBE at a
# launch of the Gluon forward kernel: 0 as shipped, 1 W's TMA on even K steps only (about a third fewer L2
# bytes on 128x256 tiles, as a CTA pair multicasting W would save), 2 W's block loaded twice (more bytes, the
# same MMA work). Variants 1 and 2 compute wrong results on purpose (1) or the same ones (2); timing only.
# Per shape, one process: checked, then 6 interleaved rounds; then each variant 4 s back to back with the SM
# clock and power sampled. Then Nsight Compute counts per variant (one process each; counts, not times).
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git diff --stat -- gemmtune; } > "$OUT/device.txt"
F="BLOCK_SIZE_K=64,num_warps=8,use_tma_load_w=1,GROUP_SIZE_M=8,num_stages=4,TAIL_ROWS=32,warp_specialize=1,use_tma_load_x=1,pregather=1"
MIX="--model mixtral-8x7b --gemm gate_up --mode fwd --config BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,$F,dynamic_schedule=1"
LL="--model llama4-scout --gemm gate_up --mode fwd --config BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,$F"
probe() { echo "=== $*"; timeout 150 python3 results/h200/ring-unroll/env_probe.py --env GEMMTUNE_L2_PROBE --variants 0,1,2 "$@" 2>&1 | grep -v Warning; }
{ probe $MIX; probe $LL; } > "$OUT/interleaved.txt"
{ probe $MIX --sustained 4; probe $LL --sustained 4; } > "$OUT/sustained.txt"
cat "$OUT/interleaved.txt" | cut -c1-190; cat "$OUT/sustained.txt"
METRICS="--metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_elapsed.max,lts__t_bytes.sum,dram__bytes_read.sum,smsp__inst_executed.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed"
CFG="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,$F,dynamic_schedule=1"
for v in 0 1 2; do
  GEMMTUNE_L2_PROBE=$v timeout 90 ncu --clock-control none -k regex:grouped_gemm --launch-skip 1 --launch-count 1 $METRICS \
    python3 benchmarks/ncu_probe.py --model mixtral-8x7b --gemm gate_up --tokens 4096 --mode fwd --config "$CFG" --launches 2 \
    > "$OUT/ncu_probe$v.txt" 2>&1
done
grep -E "duration|per_second|cycles_elapsed.max|lts__t_bytes|dram__bytes|inst_executed|hmma" "$OUT"/ncu_probe*.txt | cut -c1-160
