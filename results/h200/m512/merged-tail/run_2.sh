set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -2
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/nvidia-smi.csv
export PYTHONPATH=benchmarks
T="use_tma_load_w=1,use_tma_load_x=1,GROUP_SIZE_M=8,BLOCK_SIZE_K=64"
GU_TAIL="$T,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_warps=8,num_stages=4,TAIL_ROWS=32,pregather=1,warp_specialize=1"
GU_PLAIN="$T,BLOCK_SIZE_M=64,BLOCK_SIZE_N=256,num_warps=4,num_stages=5,pregather=1"
DN_TAIL="$T,BLOCK_SIZE_M=128,BLOCK_SIZE_N=128,num_warps=4,num_stages=6,TAIL_ROWS=32,warp_specialize=1"
DN_PLAIN="$T,BLOCK_SIZE_M=64,BLOCK_SIZE_N=128,BLOCK_SIZE_K=128,num_warps=4,num_stages=4"
i=0
for spec in "gate_up|$GU_TAIL" "gate_up|$GU_PLAIN" "down|$DN_TAIL" "down|$DN_PLAIN"; do
  gemm=${spec%%|*}; cfg=${spec#*|}; i=$((i+1))
  ncu --clock-control none -k regex:grouped_gemm --launch-skip 1 --launch-count 1 --set full -o $OUT/r$i \
    python3 benchmarks/ncu_probe.py --model mixtral-8x7b --gemm $gemm --tokens 512 --config "$cfg" --launches 2 > $OUT/ncu_log_$i.txt 2>&1
  ncu -i $OUT/r$i.ncu-rep --page details > $OUT/details_$i.txt 2>&1
  ncu -i $OUT/r$i.ncu-rep --page raw --csv --metrics dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,lts__t_sector_hit_rate.pct,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,smsp__cycles_active.avg > $OUT/raw_$i.csv 2>&1
  rm -f $OUT/r$i.ncu-rep
done
# the torch loop's GEMM kernels on gate_up, for their DRAM throughput
ncu --clock-control none -k regex:nvjet --launch-count 8 --section SpeedOfLight --section MemoryWorkloadAnalysis \
  python3 benchmarks/ncu_probe.py --model mixtral-8x7b --gemm gate_up --tokens 512 --config "$GU_PLAIN" --launches 1 --torch > $OUT/torch_loop_gate_up.txt 2>&1
grep -h "DRAM Throughput\|Duration\|Memory Throughput\|SM Frequency\|Compute (SM) Throughput\|L2 Hit Rate" $OUT/details_*.txt | head -60
