#!/bin/bash
# Call 5 (pair-grouped, entry 65): when do an expert's two 128-row blocks of one column run? trace.patch (on 32be4fd)
# records each tile's start and end in the Gluon forward kernel's MMA warps; trace_probe.py prints, per expert, the gap
# between its blocks' starts. 128x256 tail32 on the static schedule (and split_tail, lowered to 80 K steps, under
# uniform routing), under balanced, aligned and uniform routing. Prediction: the gaps are a small part of a K step
# (under 1 us) with balanced and aligned routing, and several K steps with uniform routing, most on experts with tails.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
git apply results/h200/pair-grouped/trace.patch || { echo "patch did not apply"; exit 1; }
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
C="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=4,TAIL_ROWS=32,use_tma_load_w=1,use_tma_load_x=1,pregather=1,warp_specialize=1"
for r in balanced aligned uniform; do
  extra=()
  [ "$r" = uniform ] && extra=(--config "$C,split_tail=1")
  timeout 150 python3 results/h200/pair-grouped/trace_probe.py --routing $r --config "$C" "${extra[@]}" \
    > "$OUT/trace_$r.txt" 2>&1
  echo "$r rc $?"; grep -v "^  \[" "$OUT/trace_$r.txt" | cut -c1-160
done
echo "all done at $(( $(date +%s) - T0 )) s"
