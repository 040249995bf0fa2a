#!/bin/bash
# Call 1 (coupled-pairs, docs/perf-notes.md entry 63): entry 62's pair variants beside the shipped Gluon forward
# kernel on the same dense problems (E=1), interleaved, then each under 3 s of sustained load.
# Prediction: if the pair kept in step is a lever for gemmtune's kernel, "pair coupled" runs >= 1.02x the best
# shipped config on both shapes; if the shipped kernel is already as fast, coupling is not worth building.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
C="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,warp_specialize=1"
for shape in 8192,8192,8192 4096,28672,4096; do
  timeout 240 env PYTHONPATH=benchmarks python3 results/h200/coupled-pairs/pair_probe.py --shape $shape --rounds 6 \
    --seconds 3 --config "$C,num_stages=4" --config "$C,num_stages=4,dynamic_schedule=1" \
    --config "$C,num_stages=3,use_tma_store=1" > "$OUT/probe_${shape//,/x}.txt" 2>&1
  echo "$shape rc $?"; cut -c1-220 "$OUT/probe_${shape//,/x}.txt"
done
echo "all done at $(( $(date +%s) - T0 )) s"
