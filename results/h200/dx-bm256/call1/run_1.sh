#!/bin/bash
# Call 1 (dx-bm256): the dX suite sweeps with 256-row tiles added to the space (benchmarks/spaces/suite-dx.toml),
# models in order of the rows furthest behind torch; then the best 256-row config against the best other
# config per problem (benchmarks/lever_effect.py, same sweep). docs/perf-notes.md entry 47.
set -u
T0=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
N=1; D=$OUT/call$N; R=/tmp/bm$N; mkdir -p $D $R
cp results/h200/dx-bm256/call$N/run_$N.sh $D/; git rev-parse HEAD > $D/commit.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
for m in llama4-scout mixtral-8x7b gpt-oss-20b qwen3-30b-a3b olmoe-1b-7b deepseek-v3; do
  left=$(( 560 - ($(date +%s) - T0) ))
  [ $left -lt 70 ] && { echo "no time left for $m" | tee -a $R/log.txt; continue; }
  start=$(date +%s)
  timeout $left python3 benchmarks/suite.py run --out $R --models $m --modes dx > $R/suite_dx_$m.log 2>&1
  echo "suite dx $m rc $? in $(( $(date +%s) - start )) s" | tee -a $R/log.txt
done
python3 benchmarks/lever_effect.py $R/*_dx_*.parquet --knob BLOCK_SIZE_M=256 --csv $R/lever_bm256.csv > $R/lever_bm256.txt 2>&1
cat $R/log.txt $R/lever_bm256.txt
gzip $R/*.journal.jsonl
tar czf $D/call${N}.tar.gz -C $R .
