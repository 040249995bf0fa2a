#!/bin/bash
# Call 2 (dx-bm256): (1) llama4-scout's dX at 4096 tokens, the 256-row pick of call 1 against the 128-row
# ones in a fresh process (benchmarks/retime_again.py); (2) a default-space sweep of llama4-scout at 4096
# tokens, fwd and dX, now with 256-row tiles (configs/default.toml); (3) the GPU tests of the Gluon forward and
# dX kernels, new 256-row cases included. docs/perf-notes.md entry 47.
set -u
T0=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
N=2; D=$OUT/call$N; R=/tmp/bm$N; mkdir -p $D $R/default
cp results/h200/dx-bm256/call$N/run_$N.sh $D/; git rev-parse HEAD > $D/commit.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
F=results/h200/dx-bm256/call1/llama4-scout_dx_M4096-16384_uniform_bf16.parquet
start=$(date +%s)
timeout 150 python3 benchmarks/retime_again.py $F --mode dx --gemm down --M 4096 \
  --config "dx BM256 BN64 BK128 G8 w8 s4 tail32 tma[dy,w] pregather warp_specialize" \
  --config "dx BM128 BN64 BK256 G8 w8 s3 tma[dy,w] pregather" \
  --config "dx BM128 BN64 BK256 G8 w8 s4 tail32 tma[dy,w] pregather dynamic_schedule warp_specialize" \
  > $R/retime_down_4096.txt 2>&1
echo "retime down rc $? in $(( $(date +%s) - start )) s" | tee -a $R/log.txt
start=$(date +%s)
timeout 150 python3 benchmarks/retime_again.py $F --mode dx --gemm gate_up --M 4096 \
  --config "dx BM256 BN64 BK128 G8 w8 s4 tail32 tma[dy,w] warp_specialize" \
  --config "dx BM128 BN64 BK256 G8 w8 s4 tail32 tma[dy,w] dynamic_schedule warp_specialize" \
  --config "dx BM64 BN64 BK256 G8 w8 s4 tma[dy,w]" \
  > $R/retime_gate_up_4096.txt 2>&1
echo "retime gate_up rc $? in $(( $(date +%s) - start )) s" | tee -a $R/log.txt
left=$(( 430 - ($(date +%s) - T0) )); start=$(date +%s)
timeout $left gemmtune sweep --model llama4-scout --tokens 4096 --mode fwd,dx --out $R/default -q > $R/default/sweep.txt 2>&1
echo "default sweep rc $? in $(( $(date +%s) - start )) s" | tee -a $R/log.txt
for f in $R/default/*.parquet; do gemmtune show $f --top 5 >> $R/default/show.txt 2>&1; done
python3 benchmarks/lever_effect.py $R/default/*.parquet --knob BLOCK_SIZE_M=256 > $R/default/lever_bm256.txt 2>&1
left=$(( 585 - ($(date +%s) - T0) )); start=$(date +%s)
timeout $left python3 -m pytest -q -m gpu tests/test_gpu.py -k "merged_tail_forward or warp_specialized_dx" -rs \
  > $R/pytest_gpu.txt 2>&1
echo "pytest rc $? in $(( $(date +%s) - start )) s" | tee -a $R/log.txt
cat $R/log.txt $R/retime_*.txt $R/default/lever_bm256.txt; tail -3 $R/pytest_gpu.txt
gzip $R/default/*.journal.jsonl
tar czf $D/call${N}.tar.gz -C $R .
