#!/bin/bash
# Call 4 (pair-multicast, docs/perf-notes.md entry 62): with the default-semantics remote arrive (call 3), multicast ran
# 1.013-1.034x the pair kernel without it, and so did the "coupled" control without multicast. Nsight Compute over one
# launch of each (3 stages of 64 columns, 8192^3): does multicast move fewer L2 bytes, and at what clock?
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
METRICS="--metrics lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_op_read.sum,dram__bytes_read.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum"
timeout 200 ncu --clock-control none -k regex:pair_gemm --launch-skip 1 --launch-count 5 $METRICS \
  python3 results/h200/pair-multicast/probe.py --tiling 3,64 --launches 2 8192,8192,8192 > "$OUT/ncu.txt" 2>&1
echo "ncu rc $?"; grep -E "pair_gemm \(|lts__|dram__|hmma|duration|per_second|inst_exec" "$OUT/ncu.txt" | head -50
echo "all done at $(( $(date +%s) - T0 )) s"
