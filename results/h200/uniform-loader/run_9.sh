#!/bin/bash
# Call 9 (uniform-loader): the split output blocks (320 and 384 columns) of the suite's best configs after calls
# 3-7, on the kernels before this entry (base, loaded twice: an A/A control) and on 99185d6's (tree), one
# process per shape (arms_probe.py: checked, 10 interleaved rounds beside torch). Call 8 found gpt-oss-20b's
# down GEMM at 16384 tokens 0.960x with 384 columns.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git status --short | grep -v "results/h200/" | head -20; } > "$OUT/device.txt"
export PYTHONPATH=benchmarks
D=results/h200/uniform-loader
P="$D/arms_probe.py --arm base=$D/arms/base --arm base_again=$D/arms/base"
WS="GROUP_SIZE_M=8,num_warps=8,warp_specialize=1"
F384="BLOCK_SIZE_M=128,BLOCK_SIZE_N=384,BLOCK_SIZE_K=64,use_tma_load_w=1,use_tma_load_x=1,$WS"
D128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,use_tma_load_dy=1,use_tma_load_w=1,$WS"
mkdir -p "$OUT/p"
run() {  # output-name spec
  timeout 170 python3 $P --rounds 10 --shape "$2" 2>&1 | grep -v Warning > "$OUT/p/$1.txt"
  cut -c1-150 "$OUT/p/$1.txt" | grep -v "check ok" | tail -8
  echo "$1 done at $(( $(date +%s) - T0 )) s"
}
{
run fwd_gpt-oss_down_16384 "fwd:gpt-oss-20b:down:16384:$F384,num_stages=3"
run fwd_gpt-oss_gate_up_16384 "fwd:gpt-oss-20b:gate_up:16384:$F384,num_stages=3,pregather=1"
run fwd_mixtral_gate_up_16384 "fwd:mixtral-8x7b:gate_up:16384:$F384,num_stages=3,pregather=1,dynamic_schedule=1"
run dx_mixtral_down_16384 "dx:mixtral-8x7b:down:16384:$D128,BLOCK_SIZE_K=384,num_stages=3,pregather=1,dynamic_schedule=1"
run dx_gpt-oss_gate_up_16384 "dx:gpt-oss-20b:gate_up:16384:$D128,BLOCK_SIZE_K=320,num_stages=3"
} 2>&1
tar -C "$OUT" -czf "$OUT/probes.tar.gz" p && rm -r "$OUT/p"
echo "total $(( $(date +%s) - T0 )) s"
