#!/bin/bash
# Device call 2 (dynamic schedule): the Gluon forward tests with both schedules, then the shapes whose suite
# best is a Gluon config with merged tails, with and without the dynamic schedule, one process per shape.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
timeout 330 python3 -m pytest -q tests/test_gpu.py -k "warp_specialized_forward or merged_tail" 2>&1 | tail -4 | tee $OUT/pytest_ws_forward.txt
W="BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,warp_specialize=1"
probe() {  # label, then ncu_probe arguments
  label=$1; shift
  echo "## $label" | tee -a $OUT/probes.txt
  (cd benchmarks && timeout 100 python3 ncu_probe.py "$@" --check --rounds 4 --torch) 2>&1 | grep -v "^$" | tee -a $OUT/probes.txt
}
G="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,num_stages=4,TAIL_ROWS=32,use_tma_load_x=1,$W"
probe "llama4-scout gate_up 4096" --model llama4-scout --gemm gate_up --tokens 4096 \
  --config "$G,pregather=1" --config "$G,pregather=1,dynamic_schedule=1"
probe "qwen3-30b-a3b down 4096" --model qwen3-30b-a3b --gemm down --tokens 4096 \
  --config "$G" --config "$G,dynamic_schedule=1"
probe "gpt-oss-20b down 16384" --model gpt-oss-20b --gemm down --tokens 16384 \
  --config "$G" --config "$G,dynamic_schedule=1"
