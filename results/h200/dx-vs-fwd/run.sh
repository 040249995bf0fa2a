#!/bin/bash
# Why mixtral-8x7b's down GEMM runs slower in dX than in the forward at 16384 tokens (suite: dX 0.96x the torch
# loop at 629 TF/s, the forward 1.07x at 675 TF/s, the same flops). In one process each: the timings, checked,
# in 6 interleaved rounds beside the torch baselines; then Nsight Compute over one launch of each of our
# kernels and over the torch loop's eight per-expert GEMMs of dX.
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; } > "$OUT/device.txt"
export PYTHONPATH=benchmarks
DX="BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_warps=8,num_stages=4,use_tma_load_dy=1,use_tma_load_w=1,pregather=1"
FWD="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=8,num_stages=3,use_tma_load_x=1,use_tma_load_w=1"
PROBLEM="--model mixtral-8x7b --gemm down --tokens 16384"
{ timeout 120 python3 benchmarks/ncu_probe.py $PROBLEM --mode dx --rounds 6 --torch --check --config "$DX" \
    --config "$DX,warp_specialize=1";
  timeout 100 python3 benchmarks/ncu_probe.py $PROBLEM --mode fwd --rounds 6 --torch --check --config "$FWD"; } \
  > "$OUT/timings.txt" 2>&1
SECTIONS="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section WarpStateStats"
METRICS="--metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,lts__t_bytes.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum"
{ for spec in "dx|$DX" "dx|$DX,warp_specialize=1" "fwd|$FWD"; do
    mode=${spec%%|*}; cfg=${spec#*|}
    timeout 100 ncu --clock-control none -k regex:grouped_gemm --launch-skip 1 --launch-count 1 $SECTIONS $METRICS \
      python3 benchmarks/ncu_probe.py $PROBLEM --mode $mode --config "$cfg" --launches 2
  done; } > "$OUT/ncu_ours.txt" 2>&1
timeout 150 ncu --clock-control none -k regex:nvjet --launch-count 8 $SECTIONS $METRICS \
  python3 benchmarks/ncu_probe.py $PROBLEM --mode dx --config "$DX" --launches 1 --torch > "$OUT/ncu_torch_loop.txt" 2>&1
