#!/bin/bash
# Call 8 (uniform-loader): the rows whose suite ratio fell after calls 3-7, and the 384-column block that read
# 0.985x in call 2, each config on the kernels before this entry (base, loaded twice: an A/A control) and on
# 99185d6's (tree) in one process per shape (arms_probe.py: checked, 10 interleaved rounds beside torch).
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
F128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,use_tma_load_w=1,use_tma_load_x=1,$WS"
F256="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,use_tma_load_w=1,use_tma_load_x=1,$WS"
mkdir -p "$OUT/p"
run() {  # output-name spec
  timeout 170 python3 $P --rounds 10 --shape "$2" 2>&1 | grep -v Warning > "$OUT/p/$1.txt"
  cut -c1-150 "$OUT/p/$1.txt" | grep -v "check ok" | tail -8
  echo "$1 done at $(( $(date +%s) - T0 )) s"
}
{
run fwd_gpt-oss_down_16384 \
  "fwd:gpt-oss-20b:down:16384:${F128/BLOCK_SIZE_N=256/BLOCK_SIZE_N=320},num_stages=3;${F128/BLOCK_SIZE_N=256/BLOCK_SIZE_N=384},num_stages=3"
run fwd_qwen3_down_4096 \
  "fwd:qwen3-30b-a3b:down:4096:$F256,num_stages=4,TAIL_ROWS=32;$F128,num_stages=3,TAIL_ROWS=32,dynamic_schedule=1"
run fwd_deepseek_gate_up_4096 \
  "fwd:deepseek-v3:gate_up:4096:${F128/use_tma_load_x=1,/},num_stages=4,TAIL_ROWS=32,dynamic_schedule=1"
run fwd_mixtral_gate_up_16384 "fwd:mixtral-8x7b:gate_up:16384:${F128/BLOCK_SIZE_N=256/BLOCK_SIZE_N=384},num_stages=3,pregather=1"
} 2>&1
tar -C "$OUT" -czf "$OUT/probes.tar.gz" p && rm -r "$OUT/p"
echo "total $(( $(date +%s) - T0 )) s"
