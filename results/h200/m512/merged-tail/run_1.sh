set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -2
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/nvidia-smi.csv
git rev-parse HEAD > $OUT/head.txt; git status --short >> $OUT/head.txt
export PYTHONPATH=benchmarks
start=$(date +%s)
gemmtune sweep --model mixtral-8x7b --tokens 512 --mode fwd --space benchmarks/spaces/merged-tail-m512.toml \
  --out $OUT --name mixtral-8x7b_fwd_M512_merged_tail -q > $OUT/sweep.txt 2>&1
echo "sweep rc $? in $(( $(date +%s) - start )) s" >> $OUT/sweep.txt
python3 benchmarks/weight_floor.py $OUT/mixtral-8x7b_fwd_M512_merged_tail.parquet > $OUT/weight_floor.txt 2>&1
# best config with merged tails and best without, per GEMM, timed again in interleaved rounds with torch
python3 - > $OUT/ab_configs.txt <<'PY'
import sys; sys.path.insert(0, "benchmarks")
import os
from gemmtune.results import ok_rows, read_results
from gemmtune.config import config_class
df, _ = read_results(os.environ["OUT"] + "/mixtral-8x7b_fwd_M512_merged_tail.parquet")
ok = ok_rows(df)
fields = config_class("fwd").field_names()
for gemm in ("gate_up", "down"):
    rows = ok[ok.gemm == gemm]
    tail = rows.TAIL_ROWS > 0
    picks = [rows[tail].nsmallest(2, "triton_time_ms"), rows[~tail].nsmallest(2, "triton_time_ms")]
    for pick in picks:
        for _, row in pick.iterrows():
            text = ",".join(f"{f}={int(row[f])}" for f in fields if f in row and f not in ("permute_x", "permute_y"))
            print(gemm, text)
PY
for gemm in gate_up down; do
  args=$(grep "^$gemm " $OUT/ab_configs.txt | cut -d' ' -f2 | sed 's/^/--config /' | tr '\n' ' ')
  python3 benchmarks/ncu_probe.py --model mixtral-8x7b --gemm $gemm --tokens 512 $args --rounds 6 --torch > $OUT/ab_$gemm.txt 2>&1
done
echo "total $(( $(date +%s) - start )) s" >> $OUT/sweep.txt
