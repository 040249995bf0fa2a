#!/bin/bash
# Device call 1 (entry 38, claim ahead): the dynamic schedule's claim moved from after a tile's last loads to
# after its second step's loads. The Gluon forward GPU tests with both schedules, then one process per shape
# with this tree's kernels, and, for deepseek-v3 and mixtral, one more with the previous commit's (_head/).
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
mkdir -p $OUT/call1
timeout 150 python3 -m pytest -q tests/test_gpu.py -k "warp_specialized_forward or merged_tail" 2>&1 | tail -2 | tee $OUT/call1/pytest_ws_forward.txt
W="BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,warp_specialize=1"
P="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1"
T="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=3,$W"
G="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,num_stages=4,use_tma_load_x=1,pregather=1,$W"
H="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=3,use_tma_load_x=1,pregather=1,$W"
probe() {  # tree (. or _head), label, then ncu_probe arguments
  tree=$1; label=$2; shift 2
  echo "## $label ($tree)" | tee -a $OUT/call1/probes.txt
  (cd $tree/benchmarks && PYTHONPATH=$(cd .. && pwd) timeout 150 python3 ncu_probe.py "$@" --check --rounds 4 --torch) 2>&1 \
    | grep -v "^$" | tee -a $OUT/call1/probes.txt
}
deepseek() { probe $1 "deepseek-v3 gate_up 16384" --model deepseek-v3 --gemm gate_up --tokens 16384 \
  --config "$T" --config "$T,dynamic_schedule=1" --config "$T,TAIL_ROWS=32" --config "$T,TAIL_ROWS=32,dynamic_schedule=1"; }
mixtral() { probe $1 "mixtral-8x7b gate_up 4096" --model mixtral-8x7b --gemm gate_up --tokens 4096 \
  --config "$P,num_stages=3,use_tma_load_x=1,pregather=1,half_tail=1" --config "$H" --config "$H,dynamic_schedule=1" \
  --config "$G,TAIL_ROWS=32" --config "$G,TAIL_ROWS=32,dynamic_schedule=1"; }
deepseek .
mixtral .
probe . "llama4-scout gate_up 16384" --model llama4-scout --gemm gate_up --tokens 16384 \
  --config "$P,num_stages=4,use_tma_load_x=1,pregather=1,half_tail=1" --config "$H" --config "$H,dynamic_schedule=1" \
  --config "$G,TAIL_ROWS=32" --config "$G,TAIL_ROWS=32,dynamic_schedule=1"
deepseek _head
mixtral _head
cd $OUT && tar czf call1.tgz call1 && rm -rf call1
