"""Probe (docs/perf-notes.md, entry 62): does dX lose to the forward kernel on its W layout alone?

dX = dY · W[e] reads W[e] (N, K) with the reduction N as its rows, so the wgmma takes W as a transposed B operand
(`HGMMA … tnspB`) and the loader fetches each (BLOCK_SIZE_N, BLOCK_SIZE_K) block as 64-column TMA boxes (the
128-byte swizzle's width: 5 UTMALDG per K step where the forward has 2, sass_report on sm_90). The same product is a
forward GEMM on Wᵀ: Y = dY · (Wᵀ)[e]ᵀ with Wᵀ (E, K, N) contiguous, whose blocks are read along the reduction. One
process per shape, each variant checked against the dX reference, then timed beside the torch baselines in
interleaved rounds (benchmarks/probe.py):
- "dx": the dX config on the dX problem (the suite's best for the shape);
- "dx again": the same launch timed a second time in each round, the order's and the spread's control;
- "fwd on Wᵀ": the forward kernel with the same tile, ring, flags and schedule on dY and Wᵀ;
- "torch loop on Wᵀ": the torch loop's per-expert torch.mm with Wᵀ's blocks, so cuBLAS reads W along the reduction.
Wᵀ's copy is made once, outside the timed calls. With --launches N, "dx" and then "fwd on Wᵀ" are only launched N
times each, for a profiler. GPU only.

    PYTHONPATH=benchmarks python results/h200/dx-layout/layout_probe.py \\
        --shape "mixtral-8x7b:down:16384:BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,..."
"""

from __future__ import annotations

import argparse

import gemmtune  # noqa: F401  (first: settles the backend before Triton loads)
import probe
import torch

from gemmtune.config import config_from_dict
from gemmtune.kernels import Launcher
from gemmtune.problem import Inputs, Problem
from gemmtune.reference import _segments

# The dX config's fields that name the forward's other blocks: dX's BLOCK_SIZE_N is its reduction step (the
# forward's BLOCK_SIZE_K) and its BLOCK_SIZE_K its output columns (the forward's BLOCK_SIZE_N).
RENAMED = {"BLOCK_SIZE_N": "BLOCK_SIZE_K", "BLOCK_SIZE_K": "BLOCK_SIZE_N", "use_tma_load_dy": "use_tma_load_x"}


def forward_on_transposed(problem: Problem, inputs: Inputs, config) -> tuple[Problem, Inputs, object]:
    """The dX problem as a forward one: X = dY (topk 1, so each row is its own token), W' = Wᵀ (E, K, N)
    contiguous, dY's gather (permute_y) as the forward's X gather and dX's scatter (permute_x) as Y's."""
    permute = "x" if problem.permute_y else "y" if problem.permute_x else "none"
    fwd = Problem("fwd", problem.E, problem.rows, problem.K, problem.N, topk=1, dtype=problem.dtype,
                  permute=permute, routing=problem.routing, seed=problem.seed, gemm=problem.gemm)
    values = {RENAMED.get(name, name): value for name, value in config.to_dict().items()
              if name not in ("mode", "SPLIT_M")}
    values.update(permute_x=fwd.permute_x, permute_y=fwd.permute_y)
    fwd_inputs = Inputs(m_sizes=inputs.m_sizes, gather_indices=inputs.gather_indices, x=inputs.dy,
                        w=inputs.w.transpose(1, 2).contiguous(),
                        topk_weights=torch.ones(problem.rows, dtype=inputs.dy.dtype, device=inputs.dy.device))
    return fwd, fwd_inputs, config_from_dict("fwd", values)


def torch_loop_on_transposed(problem: Problem, inputs: Inputs, w_t: torch.Tensor):
    """The torch loop's dX (gemmtune.reference.baselines) with W[e] given as (Wᵀ)[e]ᵀ: returns (launch, out)."""
    segments = _segments(inputs.m_sizes)
    gather = inputs.gather_indices.long()
    out = torch.empty(problem.rows, problem.K, dtype=inputs.dy.dtype, device=inputs.dy.device)

    def launch():
        dy = inputs.dy.index_select(0, gather) if problem.permute_y else inputs.dy
        dx = torch.empty_like(out)
        for e, s, t in segments:
            torch.mm(dy[s:t], w_t[e].T, out=dx[s:t])
        if problem.permute_x:
            out[gather] = dx
        else:
            out.copy_(dx)
        return out

    return launch, out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", action="append", default=[], help="model:gemm:tokens:dX config")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--launches", type=int,
                        help="only launch 'dx', then 'fwd on Wᵀ', this many times each (for Nsight Compute)")
    args = parser.parse_args()
    print(probe.header(), flush=True)
    for spec in args.shape:
        problem, inputs, config = probe.shape(f"dx:{spec}")
        fwd, fwd_inputs, fwd_config = forward_on_transposed(problem, inputs, config)
        print(f"dX config {config.to_string()}; forward config {fwd_config.to_string()}", flush=True)
        dx = Launcher(problem, inputs, config)
        on_transposed = Launcher(fwd, fwd_inputs, fwd_config)
        if args.launches:
            for launch in (dx, on_transposed):
                for _ in range(args.launches):
                    launch()
            torch.cuda.synchronize()
            continue
        loop, loop_out = torch_loop_on_transposed(problem, inputs, fwd_inputs.w)
        probe.compare(problem, inputs, [("dx", dx, dx.out), ("dx again", dx, dx.out),
                                        ("fwd on Wᵀ", on_transposed, on_transposed.out),
                                        ("torch loop on Wᵀ", loop, loop_out)], args.rounds)
        del fwd_inputs, on_transposed, dx
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
