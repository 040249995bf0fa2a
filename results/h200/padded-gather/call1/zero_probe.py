"""EXPERIMENT (entry 41): what the dW Gluon kernel's zeroing of an expert's last dY block costs.

Per shape, in one process and interleaved rounds: the suite's dW config as shipped, the same kernel with the
zeroing skipped (wrong sums on the tail rows: a bound on what removing it could gain, not a result), and the
torch baselines. Usage: python3 zero_probe.py ROUNDS model:gemm:tokens:config ...
"""
import os
import sys

sys.path.insert(0, "benchmarks")
import gemmtune  # noqa: F401
import torch
import triton

from sass_report import parse_config
from gemmtune.engine.retime import retime_interleaved
from gemmtune.kernels import Launcher, dw_ws
from gemmtune.models import layer_problems, load_model
from gemmtune.problem import make_inputs
from gemmtune.reference import baselines, reference
from gemmtune.runner import check_output

rounds = int(sys.argv[1])
print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}", flush=True)
for spec in sys.argv[2:]:
    model, gemm, tokens, text = spec.split(":", 3)
    problem = next(p for p in layer_problems(load_model(model), [int(tokens)], ["dw"]) if p.gemm == gemm)
    inputs = make_inputs(problem, "cuda")
    config = parse_config(problem, text)
    launcher = Launcher(problem, inputs, config)

    def variant(skip):
        def fn():
            dw_ws.SKIP_ZERO_FLAG = skip
            return launcher()
        return fn

    ref = reference(problem, inputs)
    for skip in (False, True):
        dw_ws.SKIP_ZERO_FLAG = skip
        checked = check_output(launcher, launcher.out, ref, problem.dtype)
        print(f"  skip_zero={skip}: check {checked.status} (rel err {checked.rel_err:.2e})", flush=True)
    named = [("shipped", variant(False)), ("skip_zero", variant(True))] + list(baselines(problem, inputs).items())
    timings = retime_interleaved([fn for _, fn in named], "do_bench", rounds, 25, 100)
    print(f"{problem.describe()}  {config.to_string()}", flush=True)
    base = timings[0]["median_ms"]
    for (name, _), t in zip(named, timings):
        if "error" in t:
            print(f"  {name:20s} error {t['error']}")
            continue
        ms = t["median_ms"]
        print(f"  {name:20s} {ms:.4f} ms {problem.flops / ms / 1e9:6.1f} TF/s  shipped/this {base / ms:.3f}  "
              f"(p20-p80 {t['p20_ms']:.4f}-{t['p80_ms']:.4f}, {t['samples']} samples)", flush=True)
