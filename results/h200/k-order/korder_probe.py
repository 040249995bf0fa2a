"""Probe (docs/perf-notes.md, entry 66): the 256-row tile's wgmmas in K-outer order.

Triton lowers one warpgroup_mma on a 256×128 tile (two 64-row slabs per warpgroup) slab by slab: the four m64n128k16 of
slab 0 over the K step's four slices of 16, then the four of slab 1, so consecutive wgmmas change both operands and
chain on one accumulator. cuBLAS's mainloop issues each K slice for every slab before the next slice. With
k_outer.patch and GEMMTUNE_K_OUTER=1 at a launch (forward only), k_loop calls warpgroup_mma once per slice of 16, and
the PTX alternates the two slabs, which share the slice of W. Needs k_outer.patch.

The shape's config without and with it: checked, then interleaved rounds (default), or --sustained S (each back to
back for S seconds with the SM clock and power sampled, benchmarks/power_probe). GPU only.

    PYTHONPATH=benchmarks python results/h200/k-order/korder_probe.py \\
        --shape fwd:llama4-scout:gate_up:4096:BLOCK_SIZE_M=256,... [--routing balanced] [--sustained 4]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.append(str(ROOT / "benchmarks"))
sys.path.append(str(ROOT / "results" / "h200" / "pair-grouped"))

import gemmtune  # noqa: E402,F401  (first: settles the backend before Triton loads)
import modes  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    modes.add_shape_arguments(parser, "mode:model:gemm:tokens:config (benchmarks/probe.shape)")
    args = parser.parse_args(argv)

    import probe

    problem, inputs, config = probe.shape(args.shape, args.routing)
    # k_outer.patch reads GEMMTUNE_K_OUTER at each launch
    named = [(name, config, {"GEMMTUNE_K_OUTER": on}) for name, on in (("slab by slab", "0"), ("K-outer", "1"))]
    return modes.run_configs(problem, inputs, named, args, 80, f"m_sizes {inputs.m_sizes.tolist()}")


if __name__ == "__main__":
    sys.exit(main())
