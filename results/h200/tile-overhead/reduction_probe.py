"""Probe (docs/perf-notes.md, entry 65): what a tile costs once, apart from its K steps, in our kernel and in the
torch baselines, on the shapes that fall short of torch.

A shape's GEMM is run at several reduction lengths with everything else equal (experts, rows, routing, output
columns, config), so every kernel computes the same tiles and only their K steps change. Per length, our config
and the torch baselines are checked (ours) and timed in interleaved rounds (benchmarks/probe.py), then each
kernel's times are fitted to t = fixed + per_step · steps by least squares. `fixed` is what the launch pays
whatever the reduction (epilogues, pipeline fills and drains, tile setup, launches); its share of the real
reduction's time says how much of a gap a cheaper or hidden epilogue could close. GPU only.

    PYTHONPATH=benchmarks python results/h200/tile-overhead/reduction_probe.py \\
        --shape "dx:mixtral-8x7b:down:16384:BLOCK_SIZE_M=128,..." --reductions 2048 4096 8192
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[3] / "benchmarks"))


def reduction_of(problem) -> str:
    """The field of `problem` (a Problem) that is its GEMM's reduction: K in the forward, N in dX."""
    return {"fwd": "K", "dx": "N"}[problem.mode]


def fit_line(xs: list[float], ys: list[float]) -> tuple[float, float]:
    """(intercept, slope) of the least-squares line through (xs, ys) (numpy.polyfit, degree 1)."""
    import numpy

    slope, intercept = numpy.polyfit(xs, ys, 1)
    return float(intercept), float(slope)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", required=True, help="mode:model:gemm:tokens:config (benchmarks/probe.shape)")
    parser.add_argument("--reductions", type=int, nargs="+", required=True,
                        help="reduction lengths to run, the shape's own among them")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--routing", default="uniform", help="gemmtune.routing's spec (uniform, balanced, a file)")
    args = parser.parse_args(argv)

    import probe
    import torch

    from gemmtune.kernels import Launcher
    from gemmtune.problem import make_inputs
    from gemmtune.reference import baselines

    print(probe.header(), flush=True)
    base, config = probe.problem_and_config(args.shape, args.routing)
    field = reduction_of(base)
    own = getattr(base, field)
    block = config.BLOCK_SIZE_K if base.mode == "fwd" else config.BLOCK_SIZE_N
    times: dict[str, dict[int, float]] = {}
    for length in args.reductions:
        problem = dataclasses.replace(base, **{field: length})
        inputs = make_inputs(problem, "cuda")
        launcher = Launcher(problem, inputs, config)
        print(f"\n{field} = {length} ({-(-length // block)} K steps of {block})", flush=True)
        names = ["ours"] + list(baselines(problem, inputs))
        timings = probe.compare(problem, inputs, [("ours " + config.to_string(), launcher, launcher.out)], args.rounds)
        for name, timing in zip(names, timings):
            if "median_ms" in timing:
                times.setdefault(name, {})[length] = timing["median_ms"]
        del launcher, inputs
        torch.cuda.empty_cache()

    print(f"\nfit t = fixed + per_step * steps over {field} in {args.reductions} (own {own}):", flush=True)
    for name, by_length in times.items():
        steps = [-(-length // block) for length in by_length]
        fixed, per_step = fit_line(steps, list(by_length.values()))
        own_ms = by_length.get(own)
        share = f", {fixed / own_ms:.1%} of its {own_ms:.4f} ms at {field} = {own}" if own_ms else ""
        residual = max(abs(fixed + per_step * s - t) for s, t in zip(steps, by_length.values()))
        print(f"  {name:18s} fixed {fixed:.4f} ms, per step {per_step * 1e3:.2f} us{share}; worst residual "
              f"{residual:.4f} ms", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
