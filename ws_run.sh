#!/bin/bash
# Temporary device script (not committed).
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
timeout 200 python3 -m pytest -q tests/test_kernel_fwd.py tests/test_gpu.py -k "not predicted_shared_memory" 2>&1 | tail -2
mkdir -p $OUT/routing
for m in mixtral-8x7b llama4-scout; do for r in uniform balanced; do
  timeout 200 gemmtune sweep --model $m --routing $r --tokens 4096 --mode fwd --space benchmarks/spaces/ws-fwd.toml --retime-top 8 --out $OUT/routing --quiet 2>&1 | tail -1
done; done
python3 - <<'PY' | tee $OUT/routing/summary.txt
import glob, os, pandas as pd
print("model gemm routing best_tflops torch_loop_tflops torch_grouped_mm_tflops speedup best_config")
for f in sorted(glob.glob(os.environ["OUT"] + "/routing/*.parquet")):
    df = pd.read_parquet(f); ok = df[df.status == "ok"]
    for gemm, g in ok.groupby("gemm"):
        b = g.loc[g.tflops.idxmax()]; fl = 2 * b.M * b.topk * b.N * b.K
        print(os.path.basename(f).split("_")[0], gemm, b.routing, round(b.tflops, 1), round(fl / b.torch_loop_ms / 1e9, 1),
              round(fl / b.torch_grouped_mm_ms / 1e9, 1), round(b.speedup, 3), b.config)
PY
cd $OUT && tar czf routing.tgz routing && rm -rf routing
