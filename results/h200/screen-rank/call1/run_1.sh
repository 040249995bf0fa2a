#!/bin/bash
# Call 1 (screen-rank): llama4-scout's forward and dX suite sweeps with the top 24 of the screen re-timed (the
# suite re-times 5), journals kept for benchmarks/screen_rank.py; then the 512-token forward sweeps of
# mixtral-8x7b and llama4-scout over the default space at the current re-time budget (docs/perf-notes.md, entry 46).
set -u
T0=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
N=1; D=$OUT/call$N; R=/tmp/sr$N; mkdir -p $D $R/m512
cp results/h200/screen-rank/call$N/run_$N.sh $D/; git rev-parse HEAD > $D/commit.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
for MODE in fwd dx; do
  left=$(( 440 - ($(date +%s) - T0) ))
  [ $left -lt 60 ] && { echo "no time left for $MODE" | tee -a $R/log.txt; continue; }
  start=$(date +%s)
  timeout $left python3 benchmarks/suite.py run --out $R --models llama4-scout --modes $MODE --retime-top 24 \
    > $R/suite_${MODE}_llama4-scout.log 2>&1
  echo "suite $MODE llama4-scout top 24 rc $? in $(( $(date +%s) - start )) s" | tee -a $R/log.txt
done
for m in mixtral-8x7b llama4-scout; do
  left=$(( 575 - ($(date +%s) - T0) ))
  [ $left -lt 45 ] && { echo "no time left for 512 $m" | tee -a $R/log.txt; continue; }
  start=$(date +%s)
  timeout $left gemmtune sweep --model $m --tokens 512 --mode fwd --out $R/m512 -q > $R/m512/sweep_$m.txt 2>&1
  echo "sweep 512 $m rc $? in $(( $(date +%s) - start )) s" | tee -a $R/log.txt
done
PYTHONPATH=benchmarks python3 benchmarks/weight_floor.py $R/m512/*_fwd_M512_*.parquet > $R/m512/weight_floor.txt 2>&1
PYTHONPATH=benchmarks python3 benchmarks/screen_rank.py $R/*.journal.jsonl > $R/screen_rank.txt 2>&1
cat $R/log.txt $R/screen_rank.txt $R/m512/weight_floor.txt
rm -f $R/m512/*.journal.jsonl
tar czf $D/call${N}.tar.gz -C $R .
