"""EXPERIMENT (entry 41, call 7): why the padded gather gains more than skipping the zeroing. Kernel-only
timings (operands prepared once, outside the timed call), one process per shape, interleaved rounds:
A: shipped dW kernel, routed operand padded, pad rows zero (correct);
B: same layout and kernel, pad rows filled with random values (wrong sums: timing only);
C: the kernel as at 7d0b485 (dw_ws_zeroing.py) on the packed layout with the zeroing skipped (wrong sums).
A vs B isolates what zeros in the padding do; B vs C what the layout does.
Usage: python3 zero_data_probe.py ROUNDS model:gemm:tokens:config ...
"""
import sys

sys.path.insert(0, "benchmarks")
import gemmtune  # noqa: F401
import torch
import triton

import dw_ws_zeroing
from sass_report import parse_config
from gemmtune.engine.retime import retime_interleaved
from gemmtune.kernels import dw_ws
from gemmtune.kernels.common import gather_rows, prepare_tma
from gemmtune.kernels.padded_gather import gather_rows_padded
from gemmtune.models import layer_problems, load_model
from gemmtune.problem import make_inputs

rounds = int(sys.argv[1])
print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}", flush=True)
for spec in sys.argv[2:]:
    model, gemm, tokens, text = spec.split(":", 3)
    problem = next(p for p in layer_problems(load_model(model), [int(tokens)], ["dw"]) if p.gemm == gemm)
    inputs = make_inputs(problem, "cuda")
    config = parse_config(problem, text)
    gi, ms, BM = inputs.gather_indices, inputs.m_sizes, config.BLOCK_SIZE_M
    px = problem.permute_x
    routed, topk = (inputs.x, problem.topk) if px else (inputs.dy, 1)
    padded_zero = gather_rows_padded(routed, gi, ms, topk, BM)
    # Pad rows: the rows of the padded layout no expert row lands on.
    padded_sizes = (ms + BM - 1) // BM * BM
    starts = torch.cumsum(padded_sizes, 0) - padded_sizes
    real = torch.zeros(padded_zero.shape[0], dtype=torch.bool, device="cuda")
    for e in range(len(ms)):
        real[int(starts[e]):int(starts[e]) + int(ms[e])] = True
    used = int(padded_sizes.sum())
    pad = (~real) & (torch.arange(padded_zero.shape[0], device="cuda") < used)
    padded_noise = padded_zero.clone()
    padded_noise[pad] = torch.randn(int(pad.sum()), padded_zero.shape[1], device="cuda").to(padded_zero.dtype)
    packed = gather_rows(routed, gi, topk)
    other = inputs.dy if px else inputs.x
    out = torch.empty((problem.E, problem.N, problem.K), dtype=other.dtype, device="cuda")
    prepare_tma(out.device, (("out", True, out),))
    name = "x" if px else "dy"

    def shipped(operand):
        x, dy = (operand, other) if px else (other, operand)
        return lambda: dw_ws.launch_dw_ws(x, dy, out, ms, config, False, name)

    def head_skip():
        x, dy = (packed, other) if px else (other, packed)
        return dw_ws_zeroing.launch_dw_ws(x, dy, out, ms, config, False, True)

    print(f"{problem.describe()}  {config.to_string()}  pad rows {int(pad.sum())} of {used}", flush=True)
    named = [("A padded, zero pad rows", shipped(padded_zero)), ("B padded, random pad rows", shipped(padded_noise)),
             ("C packed, zeroing skipped", head_skip)]
    timings = retime_interleaved([fn for _, fn in named], "do_bench", rounds, 25, 100)
    base = timings[0]["median_ms"]
    for (label, _), t in zip(named, timings):
        ms_ = t["median_ms"]
        print(f"  {label:28s} {ms_:.4f} ms {problem.flops / ms_ / 1e9:6.1f} TF/s  A/this {base / ms_:.3f}  "
              f"(p20-p80 {t['p20_ms']:.4f}-{t['p80_ms']:.4f}, {t['samples']} samples)", flush=True)
