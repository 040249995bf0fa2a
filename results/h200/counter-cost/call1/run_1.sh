#!/bin/bash
# Device call 1 (the counter's cost with the loader's gather): deepseek-v3 gate_up at 16384 tokens, 128x256 s3
# without tails, the loader's gather (G) and pregather (P), each with the static schedule and the counter, in one
# process; then Nsight Compute on one launch of each of the four.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
mkdir -p $OUT/call1
G="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=3,use_tma_load_w=1,warp_specialize=1"
P="$G,use_tma_load_x=1,pregather=1"
A=(--model deepseek-v3 --gemm gate_up --tokens 16384)
timeout 240 python3 benchmarks/ncu_probe.py "${A[@]}" --check --rounds 4 --torch --config "$G" \
  --config "$G,dynamic_schedule=1" --config "$P" --config "$P,dynamic_schedule=1" 2>&1 | grep -v "^$" \
  | tee $OUT/call1/probe.txt
for name in G Gd P Pd; do
  case $name in G) C="$G";; Gd) C="$G,dynamic_schedule=1";; P) C="$P";; Pd) C="$P,dynamic_schedule=1";; esac
  timeout 150 ncu --clock-control none -k regex:grouped_gemm --launch-skip 1 --launch-count 1 --set full \
    -o /tmp/ncu_$name python3 benchmarks/ncu_probe.py "${A[@]}" --config "$C" --launches 2 > /tmp/ncu_${name}_log.txt 2>&1
  tail -1 /tmp/ncu_${name}_log.txt
  ncu -i /tmp/ncu_$name.ncu-rep --page details > $OUT/call1/ncu_${name}_details.txt 2>&1
  ncu -i /tmp/ncu_$name.ncu-rep --page raw --csv > $OUT/call1/ncu_${name}_raw.csv 2>&1
  ncu -i /tmp/ncu_$name.ncu-rep --page source --csv --print-source sass > /tmp/ncu_${name}_sass.csv 2>&1
done
python3 ws_stalls.py /tmp/ncu_G_sass.csv /tmp/ncu_Gd_sass.csv /tmp/ncu_P_sass.csv \
  /tmp/ncu_Pd_sass.csv > $OUT/call1/ncu_stalls.txt 2>&1
grep -E "^  [a-z_]|Duration|SM Frequency|Elapsed Cycles|L2 Hit|DRAM Throughput|Mem Busy|Max Bandwidth|L1/TEX Hit" \
  $OUT/call1/ncu_*_details.txt | cut -c1-160
grep -E "^###|^by reason" $OUT/call1/ncu_stalls.txt
cp ws_run.sh $OUT/call1/run_1.sh
cd $OUT && tar czf call1.tgz call1 && rm -rf call1
