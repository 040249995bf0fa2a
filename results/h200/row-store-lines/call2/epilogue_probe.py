"""EXPERIMENT: what the Gluon forward / dX kernel's epilogue (its stores) costs, and its register store with
4 or 8 lanes along each row instead of 2.

Per shape, in one process and interleaved rounds: the config as shipped (2 lanes per row: 16 rows × 32 B per
warp store), 4 lanes (8 rows × 64 B), 8 lanes (4 rows × 128 B), the shipped kernel with every store skipped
(a runtime-false condition keeps the accumulators live; wrong output: a bound on what hiding the epilogue
could gain, not a result), and the torch baselines.
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

    def variant(skip, lanes):
        def fn():
            fwd_ws.SKIP_STORE_FLAG = skip
            fwd_ws.STORE_LANES_FLAG = lanes
            return launcher()
        return fn

    ref = reference(problem, inputs)
    variants = {"shipped": (False, 2), "lanes4": (False, 4), "lanes8": (False, 8), "skip_store": (True, 2)}
    for name, (skip, lanes) in variants.items():
        fwd_ws.SKIP_STORE_FLAG, fwd_ws.STORE_LANES_FLAG = skip, lanes
        launcher.out.zero_()
        checked = check_output(launcher, launcher.out, ref, problem.dtype)
        print(f"  {name}: check {checked.status} (rel err {checked.rel_err:.2e})", flush=True)
    named = [(name, variant(*v)) for name, v in variants.items()] + list(baselines(problem, inputs).items())
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
