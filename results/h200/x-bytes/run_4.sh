#!/bin/bash
# Call 4 (x-bytes, entry 65): call 3's pair probe without multicast ("plain": each CTA of a 2-CTA cluster loads its
# whole tiles) moved 5.77 GB through the L2 on the dense 4096x16384x5120, about 0.73x what its loads add up to
# (7.86 GB of TMA boxes). Is that the pair, or how Nsight counts TMA traffic? Our Gluon forward kernel, no clusters, on
# the same problem with the same 128x256 tile and 3 stages (and the shipped 4-stage config), counted the same way.
# Prediction: if pairs in a cluster get their shared W requests merged without multicast, ours moves clearly more
# (7-8 GB); if ours moves about 5.8 GB too, the count is Nsight's and call 3 says nothing about merging.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
METRICS="--metrics lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum,launch__grid_size"
G="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,warp_specialize=1"
for s in 3 4; do
  timeout 120 ncu --clock-control none -k regex:grouped_gemm --launch-skip 1 --launch-count 1 $METRICS \
    python3 results/h200/x-bytes/dense_launch.py "$G,num_stages=$s" > "$OUT/ncu_ours_s$s.txt" 2>&1
  echo "ours s$s rc $?"
done
grep -E "fwd |grouped_gemm|lts__|dram__|duration|per_second|inst_exec|grid_size" "$OUT"/ncu_ours_*.txt | cut -c1-170
echo "all done at $(( $(date +%s) - T0 )) s"
