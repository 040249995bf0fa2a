"""EXPERIMENT: what the routed operand's gather costs the Gluon forward / dX kernel, the bound on hiding it.

Per shape, in one process and interleaved rounds: the config with pregather as shipped (index_select, then
the kernel; both timed), the same kernel on an operand gathered once before timing (the bound: a gather that
cost nothing), the loader gathering the rows itself (cp.async, no pregather), and the torch baselines. Every
variant is checked against the reference first.
Usage: python3 gather_bound.py ROUNDS mode:model:gemm:tokens:config ...  (config: a pregather config)
"""
import dataclasses
import sys

sys.path.insert(0, "benchmarks")
import gemmtune  # noqa: F401
import torch
import triton

from sass_report import parse_config
from gemmtune.engine.retime import retime_interleaved
from gemmtune.kernels import Launcher, fwd_ws
from gemmtune.kernels.common import gather_rows
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
    assert config.pregather
    shipped = Launcher(problem, inputs, config)
    tma_flag = "use_tma_load_x" if mode == "fwd" else "use_tma_load_dy"
    loader = Launcher(problem, inputs, dataclasses.replace(config, pregather=False, **{tma_flag: False}))
    if mode == "fwd":
        routed, topk, weights = gather_rows(inputs.x, inputs.gather_indices, problem.topk), problem.topk, inputs.topk_weights
    else:
        routed, topk, weights = gather_rows(inputs.dy, inputs.gather_indices), problem.topk, None
    bound_out = torch.empty_like(shipped.out)

    def bound():
        fwd_ws.launch_ws(routed, inputs.w, bound_out, inputs.m_sizes, inputs.gather_indices, weights, config, topk,
                         False)
        return bound_out

    ref = reference(problem, inputs)
    named = [("pregather", shipped), ("gathered_before", bound), ("loader_gather", loader)]
    for (name, fn), out in zip(named, [shipped.out, bound_out, loader.out]):
        checked = check_output(fn, out, ref, problem.dtype)
        print(f"  {name}: check {checked.status} (rel err {checked.rel_err:.2e})", flush=True)
    named += list(baselines(problem, inputs).items())
    timings = retime_interleaved([fn for _, fn in named], "do_bench", rounds, 25, 100)
    print(f"{problem.describe()}  {config.to_string()}", flush=True)
    base = timings[0]["median_ms"]
    for (name, _), t in zip(named, timings):
        if "error" in t:
            print(f"  {name:20s} error {t['error']}")
            continue
        ms = t["median_ms"]
        print(f"  {name:20s} {ms:.4f} ms {problem.flops / ms / 1e9:6.1f} TF/s  pregather/this {base / ms:.3f}  "
              f"(p20-p80 {t['p20_ms']:.4f}-{t['p80_ms']:.4f}, {t['samples']} samples)", flush=True)
    del inputs, routed, shipped, loader, bound_out, ref
    torch.cuda.empty_cache()
