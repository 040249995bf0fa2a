#!/bin/bash
# Call 2 (screen-rank): call 1's three llama4-scout picks from beyond the screen's top 5, re-timed again in a
# fresh process beside the best of the top 5 (benchmarks/retime_again.py, 8 rounds); then mixtral-8x7b's
# forward and dX suite sweeps with the top 24 of the screen re-timed, journals kept (docs/perf-notes.md, entry 46).
set -u
T0=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
N=2; D=$OUT/call$N; R=/tmp/sr$N; mkdir -p $D $R
cp results/h200/screen-rank/call$N/run_$N.sh $D/; git rev-parse HEAD > $D/commit.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
C1=results/h200/screen-rank/call1
again() {  # file mode gemm M top-5 pick, top-24 pick
  PYTHONPATH=benchmarks timeout 120 python3 benchmarks/retime_again.py $C1/llama4-scout_$1_M4096-16384_uniform_bf16.parquet \
    --mode $1 --gemm $2 --M $3 --config "$4" --config "$5" --rounds 8 2>&1 | tee -a $R/retime_again.txt
}
again fwd gate_up 16384 "fwd BM128 BN256 BK64 G8 w8 s4 tail32 tma[w,x] pregather dynamic_schedule warp_specialize" \
  "fwd BM128 BN256 BK64 G8 w8 s3 tma[w,x] pregather"
again fwd down 16384 "fwd BM128 BN256 BK64 G8 w8 s3 tma[w,x] half_tail" "fwd BM128 BN256 BK64 G8 w8 s3 tma[w,x]"
again dx down 16384 "dx BM128 BN64 BK256 G8 w8 s3 tma[dy,w] pregather" "dx BM128 BN64 BK256 G8 w8 s3 tma[dy,w,store] pregather"
echo "retime_again done at $(( $(date +%s) - T0 )) s" | tee -a $R/log.txt
for MODE in fwd dx; do
  left=$(( 575 - ($(date +%s) - T0) ))
  [ $left -lt 60 ] && { echo "no time left for $MODE" | tee -a $R/log.txt; continue; }
  start=$(date +%s)
  timeout $left python3 benchmarks/suite.py run --out $R --models mixtral-8x7b --modes $MODE --retime-top 24 \
    > $R/suite_${MODE}_mixtral-8x7b.log 2>&1
  echo "suite $MODE mixtral-8x7b top 24 rc $? in $(( $(date +%s) - start )) s" | tee -a $R/log.txt
done
PYTHONPATH=benchmarks python3 benchmarks/screen_rank.py $R/*.journal.jsonl > $R/screen_rank.txt 2>&1
cat $R/log.txt $R/screen_rank.txt
tar czf $D/call${N}.tar.gz -C $R .
