#!/bin/bash
# call 3 of this session (retime-budget), at the commit in the header: does the suite's ratio to torch depend on
# the re-time's budget? The sweep's (rep 20 ms, at least 5 samples) against do_bench's defaults (25/100 ms, the
# anchors' and the probes'), alternating in one process per shape (benchmarks/retime_stability.py).
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call3; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $D/device.txt
cp ws_run.sh $D/; git rev-parse HEAD > $D/commit.txt
B1="sweep:rounds=5,warmup_ms=5,rep_ms=20,min_samples=5"; B2="long:rounds=5,warmup_ms=25,rep_ms=100"
run() {  # model gemm tokens mode
  echo "== $*" >> $D/retime_budget.txt
  timeout 140 python3 benchmarks/retime_stability.py --model $1 --gemm $2 --tokens $3 --mode $4 \
    --results results/h200/$1_$4_M4096-16384_uniform_bf16.parquet --top 3 --repeats 2 --budget $B1 --budget $B2 \
    --json $D/$1_$2_$3_$4.json >> $D/retime_budget.txt 2>&1
  echo "rc $?" >> $D/retime_budget.txt
}
run llama4-scout gate_up 4096 fwd
run mixtral-8x7b gate_up 16384 fwd
run llama4-scout down 4096 dx
run qwen3-30b-a3b gate_up 16384 fwd
tail -3 $D/retime_budget.txt
