#!/bin/bash
# Call 2 (spread-tail, entry 68). Call 1: spread_tail's 128×256 tile with 16-row shares ran 1.021× the suite config on
# llama4-scout's gate_up at 4096 tokens, the torch loop 1.091×. Here: (a) whether its W reads merge (Nsight Compute:
# L2 read sectors, DRAM bytes, duration, clock; one launch each), (b) the same under 4 s of sustained load, (c)
# llama4-scout's gate_up at 16384 tokens and (d) mixtral's at 16384, interleaved, spread_tail beside their suite configs.
# Prediction: (a) spread_tail's L2 read sectors near entry 65's aligned routing (169-174 M) and DRAM near 2.77 GB,
# where the carried tail reads 222-225 M; (c) 8-row shares 1.01-1.03× the suite config (2.7 % more MMA rows than
# routed against the carried tail's 3.1 %, and every tile of a column equal); (d) level or below (every block of a
# tailed expert pays an 8-column wgmma for 1-2 rows).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P=results/h200/store-energy/config_probe.py
T="BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,pregather=1,warp_specialize=1"
SUITE4096="suite=BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,num_stages=4,TAIL_ROWS=32,$T"
SPREAD4096="spread16 s3 static=BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=3,TAIL_ROWS=16,spread_tail=1,$T"
M="dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second"
timeout 200 ncu --clock-control none -k "regex:grouped_gemm" --metrics $M python3 $P \
  --shape fwd:llama4-scout:gate_up:4096 --config "$SUITE4096" --config "$SPREAD4096" \
  --config "carried16 s3 static=BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=3,TAIL_ROWS=16,$T" \
  --launches 1 > "$OUT/llama4_4096_ncu.txt" 2>&1
echo "ncu rc $? at $(( $(date +%s) - T0 )) s"
grep -E "dram__|lts__|duration|per_second" "$OUT/llama4_4096_ncu.txt" | cut -c1-150
timeout 120 python3 $P --shape fwd:llama4-scout:gate_up:4096 --config "$SUITE4096" --config "$SPREAD4096" \
  --sustained 4 > "$OUT/llama4_4096_sustained.txt" 2>&1
echo "sustained rc $? at $(( $(date +%s) - T0 )) s"; cut -c1-170 "$OUT/llama4_4096_sustained.txt" | tail -6
D="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=4,$T"
timeout 150 python3 $P --shape fwd:llama4-scout:gate_up:16384 \
  --config "suite=TAIL_ROWS=32,dynamic_schedule=1,$D" \
  --config "spread8 dynamic=TAIL_ROWS=8,spread_tail=1,dynamic_schedule=1,$D" \
  --config "spread8 static=TAIL_ROWS=8,spread_tail=1,$D" \
  --config "spread16 dynamic=TAIL_ROWS=16,spread_tail=1,dynamic_schedule=1,$D" \
  > "$OUT/llama4_16384.txt" 2>&1
echo "llama4 16384 rc $? at $(( $(date +%s) - T0 )) s"; cut -c1-170 "$OUT/llama4_16384.txt" | tail -7
X="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,num_stages=4,dynamic_schedule=1,$T"
timeout 150 python3 $P --shape fwd:mixtral-8x7b:gate_up:16384 \
  --config "suite=TAIL_ROWS=32,$X" --config "spread8=TAIL_ROWS=8,spread_tail=1,$X" \
  > "$OUT/mixtral_16384.txt" 2>&1
echo "mixtral 16384 rc $? at $(( $(date +%s) - T0 )) s"; cut -c1-170 "$OUT/mixtral_16384.txt" | tail -5
echo "all done at $(( $(date +%s) - T0 )) s"
