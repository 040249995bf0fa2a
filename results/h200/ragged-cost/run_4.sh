#!/bin/bash
# Call 4 (ragged-cost, entry 67): mixtral-8x7b's dX down GEMM at 16384 tokens under the suite's uniform routing, its
# suite config against merged-tail configs, in one process. Call 3 found uniform routing costing the suite config 3.6 %
# against balanced under sustained load (1.9 % interleaved), the loop 0.5 %. Five of its experts are a 128-row block
# plus 1-28 rows past 32 full blocks (4097-4124 rows): merged tails of 32 rows would compute them with the block
# before instead of in a 33rd block (261 blocks of MMA work where balanced routing has 256). The suite's screen ranked
# "s4 tail32 dynamic_schedule" first (5.874 ms) and its re-time picked the suite config; both within 1-2 % of each
# other. ../store-energy/config_probe.py: checked, 6 interleaved rounds, then 4 s each sustained.
# Prediction: with tails, the config recovers 1-2 points of the 3.6 % under sustained load.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P=results/h200/store-energy/config_probe.py
X="BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,GROUP_SIZE_M=8,num_warps=8,use_tma_load_dy=1,use_tma_load_w=1"
X="$X,pregather=1,dynamic_schedule=1,warp_specialize=1"
args=(--shape dx:mixtral-8x7b:down:16384 --config "suite=$X,num_stages=3,use_tma_store=1"
      --config "tail32 s4=$X,num_stages=4,TAIL_ROWS=32" --config "tail32 s3=$X,num_stages=3,TAIL_ROWS=32")
timeout 200 python3 $P "${args[@]}" > "$OUT/mixtral_dx_down_tails.txt" 2>&1
echo "interleaved rc $? at $(( $(date +%s) - T0 )) s"
timeout 150 python3 $P "${args[@]}" --sustained 4 >> "$OUT/mixtral_dx_down_tails.txt" 2>&1
echo "sustained rc $? at $(( $(date +%s) - T0 )) s"
cut -c1-180 "$OUT/mixtral_dx_down_tails.txt"
echo "all done at $(( $(date +%s) - T0 )) s"
