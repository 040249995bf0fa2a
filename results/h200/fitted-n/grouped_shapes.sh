# Sourced by run_3.sh and run_4.sh (fitted-n, entry 64), from the repository root: grouped_probe.py on call 3's four
# shapes, each in its own process, its output in $OUT/<name>.txt and a summary printed.
B="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,TAIL_ROWS=32,use_tma_load_w=1,use_tma_load_x=1,warp_specialize=1"
S="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,TAIL_ROWS=32,use_tma_load_w=1,use_tma_load_x=1,warp_specialize=1"
run() {  # name spec
  timeout 150 env PYTHONPATH=benchmarks python3 results/h200/fitted-n/grouped_probe.py --rounds 6 --shape "$2" \
    > "$OUT/$1.txt" 2>&1
  echo "$1 rc $?"; grep -v "^    \|^  n\|^  \[" "$OUT/$1.txt" | cut -c1-230
}
run llama4_gate_up_4096 "fwd:llama4-scout:gate_up:4096:$B,num_stages=4,pregather=1"
run llama4_down_4096 "fwd:llama4-scout:down:4096:$B,num_stages=4,dynamic_schedule=1"
run mixtral_gate_up_4096 "fwd:mixtral-8x7b:gate_up:4096:$B,num_stages=4,pregather=1,dynamic_schedule=1|$S,num_stages=4,pregather=1,dynamic_schedule=1"
run llama4_gate_up_16384 "fwd:llama4-scout:gate_up:16384:$B,num_stages=4,pregather=1,dynamic_schedule=1|$S,num_stages=4,pregather=1,dynamic_schedule=1"
