# Sourced by run_1.sh, run_3.sh and run_6.sh after benchmarks/device_setup.sh: the configs those calls share, and
# run(), which times one shape's config carried (once) and split on every arm (uniform-loader/arms_probe.py, 4
# interleaved rounds). The calls ran these lines inline, each with its own `timeout`: RUN_TIMEOUT seconds per shape.
export PYTHONPATH=benchmarks
P="results/h200/uniform-loader/arms_probe.py --arm before=results/h200/split-shares/arms/before --rounds 4"
WS="GROUP_SIZE_M=8,num_warps=8,warp_specialize=1,TAIL_ROWS=32"
F128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,use_tma_load_w=1,use_tma_load_x=1,$WS"
F256="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,use_tma_load_w=1,use_tma_load_x=1,$WS"
D128="BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,use_tma_load_dy=1,use_tma_load_w=1,$WS"
mkdir -p "$OUT/p"
run() {  # output-name mode:model:gemm:tokens config: carried once, split on both arms
  timeout "$RUN_TIMEOUT" python3 $P --shape "$2:=$3;$3,split_tail=1" 2>&1 | grep -v Warning > "$OUT/p/$1.txt"
  cut -c1-160 "$OUT/p/$1.txt" | grep -v "check ok" | tail -6
  echo "$1 done at $(( $(date +%s) - T0 )) s"
}
