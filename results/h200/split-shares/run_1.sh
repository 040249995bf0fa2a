#!/bin/bash
# Call 1 (split-shares, docs/perf-notes.md entry 61): split_tail with its shares capped at k_steps // 64 tiles per
# column (TAIL_SHARE_STEPS), one share stored whole. The GPU tests of split_tail, then each shape's suite config
# carried (timed once), split on the kernels before the cap (arm "before": 59a271a's fwd_ws.py and dw_ws.py) and
# split with the cap (tree), in one process per shape (arms_probe.py: checked, 4 interleaved rounds beside the
# torch baselines).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -k split_tail > "$OUT/pytest_split_tail.txt" 2>&1
echo "rc $?" >> "$OUT/pytest_split_tail.txt"; tail -3 "$OUT/pytest_split_tail.txt"
echo "tests done at $(( $(date +%s) - T0 )) s"
export PYTHONPATH=benchmarks
P="results/h200/uniform-loader/arms_probe.py --arm before=results/h200/split-shares/arms/before --rounds 4"
WS="GROUP_SIZE_M=8,num_warps=8,warp_specialize=1,TAIL_ROWS=32"
F128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,use_tma_load_w=1,use_tma_load_x=1,$WS"
D128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,use_tma_load_dy=1,use_tma_load_w=1,$WS"
mkdir -p "$OUT/p"
run() {  # output-name mode:model:gemm:tokens config: carried once, split on both arms
  timeout 110 python3 $P --shape "$2:=$3;$3,split_tail=1" 2>&1 | grep -v Warning > "$OUT/p/$1.txt"
  cut -c1-160 "$OUT/p/$1.txt" | grep -v "check ok" | tail -6
  echo "$1 done at $(( $(date +%s) - T0 )) s"
}
run fwd_mixtral_gate_up_4096 fwd:mixtral-8x7b:gate_up:4096 "$F128,num_stages=3,pregather=1,dynamic_schedule=1"
run dx_mixtral_down_4096 dx:mixtral-8x7b:down:4096 "$D128,num_stages=3,pregather=1,dynamic_schedule=1"
run fwd_mixtral_down_4096 fwd:mixtral-8x7b:down:4096 "$F128,num_stages=3,dynamic_schedule=1"
run dx_mixtral_gate_up_4096 dx:mixtral-8x7b:gate_up:4096 "$D128,num_stages=3"
