"""EXPERIMENT: the Gluon forward / dX kernel with each tile stored under the next tile's first K step.

Per shape, in one process and interleaved rounds: `head` (the kernel as at 49b85ea with the 8-lane row store,
fwd_ws_head.py, loader warp at 64 registers), `deferred` (the new structure, the store deferred into the next
tile but issued before its first K step), `overlap` (the new structure, the store under the first K step),
and the torch baselines. Every variant is checked against the reference first.
Usage: python3 overlap_probe.py ROUNDS mode:model:gemm:tokens:config ...
"""
import sys

sys.path.insert(0, "benchmarks")
import gemmtune  # noqa: F401
import torch
import triton

import fwd_ws_head
from sass_report import parse_config
from gemmtune.engine.retime import retime_interleaved
import gemmtune.kernels as kernels
from gemmtune.kernels import Launcher, fwd_ws
from gemmtune.models import layer_problems, load_model
from gemmtune.problem import make_inputs
from gemmtune.reference import baselines, reference
from gemmtune.runner import check_output

VARIANTS = {"head": (fwd_ws_head, None), "deferred": (fwd_ws, False), "overlap": (fwd_ws, True)}


def select(name):
    module, overlap = VARIANTS[name]
    kernels.fwd_ws = module  # fwd.py and dx.py import the module from the package at each launch
    if overlap is not None:
        fwd_ws.OVERLAP_FLAG = overlap


rounds = int(sys.argv[1])
print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}", flush=True)
for spec in sys.argv[2:]:
    mode, model, gemm, tokens, text = spec.split(":", 4)
    problem = next(p for p in layer_problems(load_model(model), [int(tokens)], [mode]) if p.gemm == gemm)
    inputs = make_inputs(problem, "cuda")
    config = parse_config(problem, text)
    ref = reference(problem, inputs)
    launchers = {}
    for name in VARIANTS:
        select(name)
        launcher = Launcher(problem, inputs, config)
        launcher.out.zero_()
        checked = check_output(launcher, launcher.out, ref, problem.dtype)
        print(f"  {name}: check {checked.status} (rel err {checked.rel_err:.2e})", flush=True)
        launchers[name] = launcher

    def variant(name):
        def fn():
            select(name)
            return launchers[name]()
        return fn

    named = [(name, variant(name)) for name in VARIANTS] + list(baselines(problem, inputs).items())
    timings = retime_interleaved([fn for _, fn in named], "do_bench", rounds, 25, 100)
    print(f"{problem.describe()}  {config.to_string()}", flush=True)
    base = timings[0]["median_ms"]
    for (name, _), t in zip(named, timings):
        if "error" in t:
            print(f"  {name:20s} error {t['error']}")
            continue
        ms = t["median_ms"]
        print(f"  {name:20s} {ms:.4f} ms {problem.flops / ms / 1e9:6.1f} TF/s  head/this {base / ms:.3f}  "
              f"(p20-p80 {t['p20_ms']:.4f}-{t['p80_ms']:.4f}, {t['samples']} samples)", flush=True)
