"""EXPERIMENT (entry 41, call 5): the dW Gluon kernel fed a padded gather (this tree) against the kernel as at
7d0b485 (dw_ws_zeroing.py, a copy of that dw_ws.py with a SKIP_ZERO switch added: index_select pregather, then
the MMA warps zero the rows past an expert's end, or with the switch skip it: wrong sums, timing only), and
the two gathers alone; one process per shape, interleaved rounds.
Usage: python3 pad_probe.py ROUNDS model:gemm:tokens:config ...
"""
import sys

sys.path.insert(0, "benchmarks")
import gemmtune  # noqa: F401
import torch
import triton

import dw_ws_zeroing
from sass_report import parse_config
from gemmtune.engine.retime import retime_interleaved
from gemmtune.kernels import Launcher
from gemmtune.kernels.common import gather_rows, prepare_tma
from gemmtune.kernels.padded_gather import gather_rows_padded
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
    new = Launcher(problem, inputs, config)
    gi, ms = inputs.gather_indices, inputs.m_sizes
    routed, topk = (inputs.x, problem.topk) if problem.permute_x else (inputs.dy, 1)
    old_out = torch.empty_like(new.out)

    def old(skip_zero=False):
        x, dy = inputs.x, inputs.dy
        if problem.permute_x:
            x = gather_rows(x, gi, topk)
        else:
            dy = gather_rows(dy, gi)
        prepare_tma(x.device, (("x", True, x), ("dy", True, dy), ("dw", config.use_tma_store, old_out)))
        dw_ws_zeroing.launch_dw_ws(x, dy, old_out, ms, config, False, skip_zero)
        return old_out

    ref = reference(problem, inputs)
    for name, fn, out in (("padded gather", new, new.out), ("zeroing (HEAD)", old, old_out)):
        checked = check_output(fn, out, ref, problem.dtype)
        print(f"  {name}: check {checked.status} (rel err {checked.rel_err:.2e})", flush=True)
    named = [("padded gather", new), ("zeroing (HEAD)", old), ("HEAD, zeroing skipped", lambda: old(True))] + [
        ("gather alone: index_select", lambda: gather_rows(routed, gi, topk)),
        ("gather alone: padded", lambda: gather_rows_padded(routed, gi, ms, topk, config.BLOCK_SIZE_M))]
    timings = retime_interleaved([fn for _, fn in named], "do_bench", rounds, 25, 100)
    print(f"{problem.describe()}  {config.to_string()}", flush=True)
    base = timings[1]["median_ms"]
    for (name, _), t in zip(named, timings):
        if "error" in t:
            print(f"  {name:28s} error {t['error']}")
            continue
        ms_ = t["median_ms"]
        print(f"  {name:28s} {ms_:.4f} ms {problem.flops / ms_ / 1e9:6.1f} TF/s  HEAD/this {base / ms_:.3f}  "
              f"(p20-p80 {t['p20_ms']:.4f}-{t['p80_ms']:.4f}, {t['samples']} samples)", flush=True)
