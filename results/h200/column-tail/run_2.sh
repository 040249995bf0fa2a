#!/bin/bash
# Call 2 (column-tail, entry 69). Call 1: on llama4-scout's forward gate_up at 4096 tokens the column tail's 128×256
# configs ran 1.035-1.046× the suite config interleaved and 1.016× sustained. Here the other forward and dX rows of
# llama4-scout and mixtral-8x7b whose best configs carry merged tails, or sit below the torch loop: each suite config
# as shipped and with GEMMTUNE_COLUMN_TAIL=1 (names ending in "column"), one process per shape, interleaved.
# Prediction: at or above the suite config where an expert's tail rides on one of two blocks in a column (4096
# tokens), within 1 % where experts have 8-32 blocks (16384 tokens: one block in 8-32 carries the tail either way).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
export PYTHONPATH=benchmarks
P="results/h200/store-energy/config_probe.py --switch column=GEMMTUNE_COLUMN_TAIL"
T="GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,warp_specialize=1"
F="BLOCK_SIZE_K=64,use_tma_load_x=1,pregather=1,$T"
probe() {  # name, seconds, probe arguments
  local name=$1 limit=$2; shift 2
  timeout "$limit" python3 $P "$@" > "$OUT/$name.txt" 2>&1
  echo "$name rc $? at $(( $(date +%s) - T0 )) s"; grep -E "first/this|WRONG" "$OUT/$name.txt" | cut -c1-150
}
L16="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=4,TAIL_ROWS=32,$F"
probe fwd_llama4_gate_up_16384 90 --shape fwd:llama4-scout:gate_up:16384 --config "suite=dynamic_schedule=1,$L16" \
  --config "suite column=dynamic_schedule=1,$L16" --config "static column=$L16"
M16="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1,$F"
probe fwd_mixtral_gate_up_16384 120 --shape fwd:mixtral-8x7b:gate_up:16384 --config "suite=$M16" \
  --config "suite column=$M16"
M4="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=4,TAIL_ROWS=32,dynamic_schedule=1,$F"
probe fwd_mixtral_gate_up_4096 60 --shape fwd:mixtral-8x7b:gate_up:4096 --config "suite=$M4" --config "suite column=$M4"
DX="BLOCK_SIZE_N=64,use_tma_load_dy=1,$T"
XD="BLOCK_SIZE_M=128,BLOCK_SIZE_K=256,TAIL_ROWS=32,pregather=1,dynamic_schedule=1,$DX"
probe dx_mixtral_down_16384 120 --shape dx:mixtral-8x7b:down:16384 \
  --config "suite=BLOCK_SIZE_M=128,BLOCK_SIZE_K=256,num_stages=3,use_tma_store=1,pregather=1,dynamic_schedule=1,$DX" \
  --config "t32 s4=num_stages=4,$XD" --config "t32 s4 column=num_stages=4,$XD"
probe dx_llama4_down_16384 90 --shape dx:llama4-scout:down:16384 --config "suite=num_stages=3,$XD" \
  --config "suite column=num_stages=3,$XD"
probe dx_llama4_down_4096 60 --shape dx:llama4-scout:down:4096 \
  --config "suite=BLOCK_SIZE_M=256,BLOCK_SIZE_K=128,num_stages=4,TAIL_ROWS=32,pregather=1,dynamic_schedule=1,$DX" \
  --config "128x256 s4 column=num_stages=4,$XD"
G4="BLOCK_SIZE_M=128,BLOCK_SIZE_K=256,num_stages=3,TAIL_ROWS=32,$DX"
probe dx_mixtral_gate_up_4096 60 --shape dx:mixtral-8x7b:gate_up:4096 --config "suite=split_tail=1,$G4" \
  --config "carried=$G4" --config "column=$G4"
W="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_stages=4,TAIL_ROWS=32,$F"
probe fwd_llama4_gate_up_4096 60 --shape fwd:llama4-scout:gate_up:4096 \
  --config "suite=BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,num_stages=4,TAIL_ROWS=32,$F" \
  --config "s4 static column=$W" --config "s4 dynamic column=dynamic_schedule=1,$W"
echo "all done at $(( $(date +%s) - T0 )) s"
