"""EXPERIMENT: pregather by index_select (each token's row read topk times) against the token-major copy
(gemmtune.kernels.pregather: each row read once, written topk times).

Part 1, per X shape: the two copies alone, checked equal, timed in interleaved rounds.
Part 2, per forward shape: the config with pregather through either copy, the loader gathering X itself
(no pregather), and the torch baselines, each checked against the reference, timed in interleaved rounds.
Usage: python3 pregather_probe.py ROUNDS copy:model:tokens ... fwd:model:gemm:tokens:config ...
"""
import dataclasses
import sys

sys.path.insert(0, "benchmarks")
import gemmtune  # noqa: F401
import torch
import triton

from sass_report import parse_config
from gemmtune.engine.retime import retime_interleaved
from gemmtune.kernels import Launcher, fwd as fwd_module
from gemmtune.kernels.pregather import gather_rows
from gemmtune.models import layer_problems, load_model
from gemmtune.problem import make_inputs
from gemmtune.reference import baselines, reference
from gemmtune.runner import check_output


def index_select_rows(t, gather_indices, topk=1, warmup=False):
    """The copy before this change: rows read in expert order."""
    return t.index_select(0, gather_indices // topk if topk > 1 else gather_indices)


def report(title, named, timings, flops=None, nbytes=None):
    print(title, flush=True)
    base = timings[0]["median_ms"]
    for (name, _), t in zip(named, timings):
        if "error" in t:
            print(f"  {name:20s} error {t['error']}")
            continue
        ms = t["median_ms"]
        rate = f"{flops / ms / 1e9:6.1f} TF/s" if flops else f"{nbytes / ms / 1e9:6.2f} TB/s (of the index_select bytes)"
        print(f"  {name:20s} {ms:.4f} ms {rate}  first/this {base / ms:.3f}  "
              f"(p20-p80 {t['p20_ms']:.4f}-{t['p80_ms']:.4f}, {t['samples']} samples)", flush=True)


rounds = int(sys.argv[1])
print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}", flush=True)
for spec in sys.argv[2:]:
    kind, model, rest = spec.split(":", 2)
    if kind == "copy":
        problem = next(p for p in layer_problems(load_model(model), [int(rest)], ["fwd"]) if p.gemm == "gate_up")
        inputs = make_inputs(problem, "cuda")
        x, gi, topk = inputs.x, inputs.gather_indices, problem.topk
        same = torch.equal(index_select_rows(x, gi, topk), gather_rows(x, gi, topk))
        named = [("index_select", lambda: index_select_rows(x, gi, topk)), ("token_major", lambda: gather_rows(x, gi, topk))]
        timings = retime_interleaved([fn for _, fn in named], "do_bench", rounds, 25, 100)
        nbytes = 2 * problem.rows * x.shape[1] * x.element_size()
        report(f"copy of X {tuple(x.shape)} -> ({problem.rows}, {x.shape[1]}), topk {topk} ({model} {rest} tokens): "
               f"equal {same}", named, timings, nbytes=nbytes)
    else:
        gemm, tokens, text = rest.split(":", 2)
        problem = next(p for p in layer_problems(load_model(model), [int(tokens)], ["fwd"]) if p.gemm == gemm)
        inputs = make_inputs(problem, "cuda")
        config = parse_config(problem, text)
        assert config.pregather
        token_major = Launcher(problem, inputs, config)
        old = Launcher(problem, inputs, config)
        loader = Launcher(problem, inputs, dataclasses.replace(config, pregather=False, use_tma_load_x=False))

        def index_select_variant():
            fwd_module.gather_rows = index_select_rows
            try:
                return old()
            finally:
                fwd_module.gather_rows = gather_rows

        ref = reference(problem, inputs)
        named = [("token_major", token_major), ("index_select", index_select_variant), ("loader_gather", loader)]
        for (name, fn), out in zip(named, [token_major.out, old.out, loader.out]):
            checked = check_output(fn, out, ref, problem.dtype)
            print(f"  {name}: check {checked.status} (rel err {checked.rel_err:.2e})", flush=True)
        named += list(baselines(problem, inputs).items())
        timings = retime_interleaved([fn for _, fn in named], "do_bench", rounds, 25, 100)
        report(f"{problem.describe()}  {config.to_string()}", named, timings, flops=problem.flops)
        del token_major, old, loader, ref
    del inputs
    torch.cuda.empty_cache()
