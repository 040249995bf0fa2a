"""EXPERIMENT: what the Gluon forward / dX kernel's epilogue (its stores) costs.

Per shape, in one process and interleaved rounds: the config as shipped, the same kernel with every store
skipped (a runtime-false condition keeps the accumulators live; wrong output: a bound on what hiding the
epilogue could gain, not a result), and the torch baselines.
Usage: python3 epilogue_probe.py ROUNDS mode:model:gemm:tokens:config ...
"""
import sys

sys.path.insert(0, "benchmarks")
import gemmtune  # noqa: F401
import torch
import triton

from sass_report import parse_config
from gemmtune.engine.retime import retime_interleaved
from gemmtune.kernels import Launcher, fwd_ws
from gemmtune.models import layer_problems, load_model
from gemmtune.problem import make_inputs
from gemmtune.reference import baselines, reference
from gemmtune.runner import check_output

rounds = int(sys.argv[1])
print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}", flush=True)
for spec in sys.argv[2:]:
    mode, model, gemm, tokens, text = spec.split(":", 4)
    problem = next(p for p in layer_problems(load_model(model), [int(tokens)], [mode]) if p.gemm == gemm)
    inputs = make_inputs(problem, "cuda")
    config = parse_config(problem, text)
    launcher = Launcher(problem, inputs, config)

    def variant(skip):
        def fn():
            fwd_ws.SKIP_STORE_FLAG = skip
            return launcher()
        return fn

    ref = reference(problem, inputs)
    for skip in (False, True):
        fwd_ws.SKIP_STORE_FLAG = skip
        launcher.out.zero_()
        checked = check_output(launcher, launcher.out, ref, problem.dtype)
        print(f"  skip_store={skip}: check {checked.status} (rel err {checked.rel_err:.2e})", flush=True)
    named = [("shipped", variant(False)), ("skip_store", variant(True))] + list(baselines(problem, inputs).items())
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
