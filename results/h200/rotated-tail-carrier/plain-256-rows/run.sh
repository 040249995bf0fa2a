#!/bin/bash
# Merged tails in the plain kernel with 256-row tiles (one block per llama4-scout expert at 4096 tokens):
# checked against the reference, then timed beside the suite's Gluon config and torch.
set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/device.txt
B="BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,pregather=1"
timeout 120 python3 - "$B" <<'PY' > $OUT/correctness.txt 2>&1
import sys
import gemmtune  # noqa: F401
from gemmtune.config import config_from_dict
from gemmtune.kernels import Launcher
from gemmtune.models import layer_problems, load_model
from gemmtune.problem import make_inputs
from gemmtune.reference import TOLERANCE, reference, relative_error
for model, tokens in (("llama4-scout", 4096), ("llama4-scout", 16384), ("mixtral-8x7b", 4096)):
    problem = next(p for p in layer_problems(load_model(model), [tokens], ["fwd"]) if p.gemm == "gate_up")
    inputs = make_inputs(problem, "cuda")
    for extra in ("num_stages=4,TAIL_ROWS=32", "num_stages=3,TAIL_ROWS=32", "num_stages=4,half_tail=1,TAIL_ROWS=32"):
        fields = dict(kv.split("=") for kv in (sys.argv[1] + "," + extra).split(","))
        config = config_from_dict("fwd", {k: int(v) for k, v in fields.items()} | {"permute_x": True})
        launcher = Launcher(problem, inputs, config)
        launcher.out.fill_(float("nan"))
        err = relative_error(launcher(), reference(problem, inputs, False))
        print(model, tokens, config.to_string(), f"rel_err {err:.2e}", "ok" if err <= TOLERANCE["bf16"] else "WRONG")
PY
cat $OUT/correctness.txt | tail -9
probe() { timeout 150 python3 benchmarks/ncu_probe.py --rounds 6 --torch --mode fwd "$@" 2>&1 | grep -v Warning; }
{
probe --model llama4-scout --gemm gate_up --tokens 4096 --config "$B,num_stages=4,warp_specialize=1,TAIL_ROWS=32" \
  --config "$B,num_stages=4,TAIL_ROWS=32" --config "$B,num_stages=3,TAIL_ROWS=32" --config "$B,num_stages=4,half_tail=1"
probe --model llama4-scout --gemm gate_up --tokens 16384 --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,use_tma_load_w=1,use_tma_load_x=1,pregather=1,num_stages=3" \
  --config "$B,num_stages=4,TAIL_ROWS=32" --config "$B,num_stages=4,half_tail=1,TAIL_ROWS=32"
} > $OUT/timings.txt 2>&1
grep -v "^==" $OUT/timings.txt
