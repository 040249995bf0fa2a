#!/bin/bash
# Call 2 (docs/perf-notes.md entry 49): benchmarks/ceiling.py on the compute-bound forward shapes (the suite's
# files) and the 512-token ones (entry 46's sweeps), twice, each in its own process.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call2; mkdir -p $D
cp results/h200/ceiling/call2/run_2.sh $D/
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,temperature.gpu --format=csv > $D/device.txt
F="results/h200/mixtral-8x7b_fwd_M4096-16384_uniform_bf16.parquet results/h200/llama4-scout_fwd_M4096-16384_uniform_bf16.parquet"
F="$F results/h200/m512/retime-budget/mixtral-8x7b_fwd_M512_uniform_bf16.parquet results/h200/m512/retime-budget/llama4-scout_fwd_M512_uniform_bf16.parquet"
for run in 1 2; do
  timeout 280 python3 benchmarks/ceiling.py $F --out $D/run$run > $D/run$run.txt 2>&1; echo "rc $?" >> $D/run$run.txt
done
nvidia-smi --query-gpu=temperature.gpu --format=csv >> $D/device.txt
tail -n 20 $D/run1.txt $D/run2.txt
