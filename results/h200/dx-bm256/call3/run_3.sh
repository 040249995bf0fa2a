#!/bin/bash
# Call 3 (dx-bm256): (1) a default-space sweep of mixtral-8x7b at 4096 tokens, fwd and dX: does the wider
# default space (4 warps, 5 stages, BLOCK_SIZE_K 128-256, 256-row tiles) find a config the suite's spaces
# miss on the rows behind torch?; (2) the whole GPU test suite at this tree. docs/perf-notes.md entry 47.
set -u
T0=$(date +%s)
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
N=3; D=$OUT/call$N; R=/tmp/bm$N; mkdir -p $D $R/default
cp results/h200/dx-bm256/call$N/run_$N.sh $D/; git rev-parse HEAD > $D/commit.txt
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
start=$(date +%s)
timeout 250 gemmtune sweep --model mixtral-8x7b --tokens 4096 --mode fwd,dx --out $R/default -q > $R/default/sweep.txt 2>&1
echo "default sweep rc $? in $(( $(date +%s) - start )) s" | tee -a $R/log.txt
gemmtune best $R/default/*.parquet --top 3 > $R/default/best.txt 2>&1
left=$(( 590 - ($(date +%s) - T0) )); start=$(date +%s)
timeout $left python3 -m pytest -m gpu -q -p no:cacheprovider tests/ > $R/pytest_gpu.txt 2>&1
echo "pytest rc $? in $(( $(date +%s) - start )) s" | tee -a $R/log.txt
cat $R/log.txt $R/default/best.txt; tail -3 $R/pytest_gpu.txt
gzip $R/default/*.journal.jsonl
tar czf $D/call${N}.tar.gz -C $R .
