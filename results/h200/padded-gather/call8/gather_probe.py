"""EXPERIMENT (entry 41, call 8): does the pregather's implementation change the GEMM after it? The same
configs with the routed operand pregathered by torch.index_select (shipped) or by a plain Triton row gather
(packed, the same layout), gather inside the timed call, one process per shape, interleaved rounds.
fwd: the suite's best pregather configs of the gate_up GEMMs that trail torch. dW: the kernel as at 7d0b485
with its zeroing skipped (dw_ws_zeroing.py from ../call6; wrong sums, timing only) under both gathers.
Usage: python3 gather_probe.py ROUNDS mode:model:gemm:tokens:config ...
"""
import sys

sys.path.insert(0, "benchmarks")
import gemmtune  # noqa: F401
import torch
import triton
import triton.language as tl

import dw_ws_zeroing
from sass_report import parse_config
from gemmtune.engine.retime import retime_interleaved
from gemmtune.kernels import Launcher, fwd
from gemmtune.kernels.common import gather_rows, prepare_tma
from gemmtune.models import layer_problems, load_model
from gemmtune.problem import make_inputs
from gemmtune.reference import baselines, reference
from gemmtune.runner import check_output


@triton.jit
def row_gather_kernel(src_ptr, dst_ptr, index_ptr, rows, D, TOPK: tl.constexpr, BLOCK_ROWS: tl.constexpr,
                      BLOCK_D: tl.constexpr):
    offs_r = tl.program_id(0) * BLOCK_ROWS + tl.arange(0, BLOCK_ROWS)
    r_mask = offs_r < rows
    src = tl.load(index_ptr + offs_r, mask=r_mask, other=0) // TOPK
    offs_d = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    mask = r_mask[:, None] & (offs_d < D)[None, :]
    v = tl.load(src_ptr + src.to(tl.int64)[:, None] * D + offs_d[None, :], mask=mask)
    tl.store(dst_ptr + offs_r.to(tl.int64)[:, None] * D + offs_d[None, :], v, mask=mask)


def triton_gather_rows(t, gather_indices, topk=1):
    rows, D = gather_indices.shape[0], t.shape[1]
    out = torch.empty((rows, D), dtype=t.dtype, device=t.device)
    row_gather_kernel[(triton.cdiv(rows, 64), triton.cdiv(D, 128))](t, out, gather_indices, rows, D, TOPK=topk,
                                                                     BLOCK_ROWS=64, BLOCK_D=128)
    return out


def with_gather(fn, gather):
    def run():
        fwd.gather_rows = gather
        try:
            return fn()
        finally:
            fwd.gather_rows = gather_rows
    return run


rounds = int(sys.argv[1])
print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}", flush=True)
for spec in sys.argv[2:]:
    mode, model, gemm, tokens, text = spec.split(":", 4)
    problem = next(p for p in layer_problems(load_model(model), [int(tokens)], [mode]) if p.gemm == gemm)
    inputs = make_inputs(problem, "cuda")
    config = parse_config(problem, text)
    ref = reference(problem, inputs)
    if mode == "fwd":
        launcher = Launcher(problem, inputs, config)
        named = [("index_select", launcher), ("triton gather", with_gather(launcher, triton_gather_rows))]
        for name, fn in named:
            checked = check_output(fn, launcher.out, ref, problem.dtype)
            print(f"  {name}: check {checked.status} (rel err {checked.rel_err:.2e})", flush=True)
        named += list(baselines(problem, inputs).items())
    else:
        out = torch.empty_like(ref, dtype=problem.torch_dtype)
        gi, ms = inputs.gather_indices, inputs.m_sizes

        def head_skip(gather):
            def run():
                x, dy = inputs.x, inputs.dy
                if problem.permute_x:
                    x = gather(x, gi, problem.topk)
                else:
                    dy = gather(dy, gi)
                prepare_tma(x.device, (("x", True, x), ("dy", True, dy), ("dw", config.use_tma_store, out)))
                return dw_ws_zeroing.launch_dw_ws(x, dy, out, ms, config, False, True)
            return run
        named = [("index_select (zeroing skipped)", head_skip(gather_rows)),
                 ("triton gather (zeroing skipped)", head_skip(triton_gather_rows))]
    timings = retime_interleaved([fn for _, fn in named], "do_bench", rounds, 25, 100)
    print(f"{problem.describe()}  {config.to_string()}", flush=True)
    base = timings[0]["median_ms"]
    for (name, _), t in zip(named, timings):
        ms_ = t["median_ms"]
        print(f"  {name:32s} {ms_:.4f} ms {problem.flops / ms_ / 1e9:6.1f} TF/s  first/this {base / ms_:.3f}  "
              f"(p20-p80 {t['p20_ms']:.4f}-{t['p80_ms']:.4f}, {t['samples']} samples)", flush=True)
