#!/bin/bash
# Call 6 (retime-budget): the suite's dW sweeps (the models in MODELS, or all six) with the re-time at do_bench's defaults
# (gemmtune/engine/retime.py RETIME: warmup 25 ms, rep 100 ms; docs/perf-notes.md entry 45).
# Code: the commit in commit.txt.
set -u
T0=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
N=6; MODE=dw; D=$OUT/call$N; R=/tmp/r$N; mkdir -p $D $R
cp ws_run.sh $D/run_$N.sh; git rev-parse HEAD > $D/commit.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
for m in ${MODELS:-deepseek-v3 mixtral-8x7b llama4-scout gpt-oss-20b qwen3-30b-a3b olmoe-1b-7b}; do
  left=$(( ${CAP:-575} - ($(date +%s) - T0) ))
  [ $left -lt 60 ] && { echo "no time left for $MODE $m" | tee -a $R/suite_log.txt; continue; }
  start=$(date +%s)
  timeout $left python3 benchmarks/suite.py run --out $R --models $m --modes $MODE > $R/suite_${MODE}_$m.log 2>&1
  echo "suite $MODE $m rc $? in $(( $(date +%s) - start )) s" | tee -a $R/suite_${MODE}_$m.log $R/suite_log.txt
done
rm -f $R/*.journal.jsonl*
tar czf $D/call${N}_suite.tar.gz -C $R .
