#!/bin/bash
# Call 3 (step-sync, entry 66): on three rows below torch at 16384 tokens (mixtral's and llama4-scout's forward gate_up,
# mixtral's dX down), how many W-sharing block pairs run in lock step under the suite config (dynamic schedule) and on
# the static schedule, and what their L2 reads and the L2 Request Coalescer's hardware coalescing say
# (lock_probe.py, needs step_sync.patch's trace). Checked, 6 interleaved rounds; Nsight Compute over two launches each;
# traced lock-step shares per quarter of the launch.
# Prediction: on the static schedule most pairs start locked and fewer stay locked in later quarters (each expert's
# tail parts one pair's programs for good); on the dynamic schedule few pairs are locked at all. If the static
# schedule's locked share is high and its L2 sectors fall with it, a schedule that keeps pairs locked is a lever.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
git apply results/h200/step-sync/step_sync.patch || { echo "patch did not apply"; exit 1; }
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P=results/h200/step-sync/lock_probe.py
G="GROUP_SIZE_M=8,num_warps=8,warp_specialize=1,BLOCK_SIZE_K=64,use_tma_load_w=1,use_tma_load_x=1,pregather=1"
D="GROUP_SIZE_M=8,num_warps=8,warp_specialize=1,BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,num_stages=3"
D="$D,use_tma_load_dy=1,use_tma_load_w=1,use_tma_store=1,pregather=1"
M="l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum"
M="$M,gpu__time_duration.sum,lrc__request_sectors_op_read_coalescable.sum"
M="$M,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum"
shape() {  # name shape configs...
  local name=$1 spec=$2; shift 2
  local args=(); for c in "$@"; do args+=(--config "$c"); done
  timeout 150 python3 $P --shape "$spec" "${args[@]}" > "$OUT/${name}_interleaved.txt" 2>&1
  echo "$name interleaved rc $? at $(( $(date +%s) - T0 )) s"; grep -v "^  \[" "$OUT/${name}_interleaved.txt" | cut -c1-170
  timeout 100 ncu --clock-control none -k "regex:grouped_gemm" --metrics $M python3 $P --shape "$spec" "${args[@]}" \
    --launches 2 > "$OUT/${name}_ncu.txt" 2>&1
  echo "$name ncu rc $? at $(( $(date +%s) - T0 )) s"
  grep -E "lts__t_sectors|lrc__|duration|tma_ld" "$OUT/${name}_ncu.txt" | cut -c1-150
  timeout 80 python3 $P --shape "$spec" "${args[@]}" --trace > "$OUT/${name}_trace.txt" 2>&1
  echo "$name trace rc $? at $(( $(date +%s) - T0 )) s"; grep -v "^NVIDIA" "$OUT/${name}_trace.txt" | cut -c1-170
}
shape mixtral_fwd_gate_up fwd:mixtral-8x7b:gate_up:16384 \
  "suite 256x128 dynamic=BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1,$G" \
  "256x128 static=BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,num_stages=4,TAIL_ROWS=32,$G" \
  "128x256 static=BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=4,TAIL_ROWS=32,$G"
shape llama4_fwd_gate_up fwd:llama4-scout:gate_up:16384 \
  "suite 128x256 dynamic=BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1,$G" \
  "128x256 static=BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=4,TAIL_ROWS=32,$G"
shape mixtral_dx_down dx:mixtral-8x7b:down:16384 "suite dynamic=$D,dynamic_schedule=1" "static=$D"
echo "all done at $(( $(date +%s) - T0 )) s"
