"""Probe (docs/perf-notes.md, entry 66): does the 256-row tile computed transposed (swap_ab) cost less energy per flop?

Entry 50's swap_ab makes each warpgroup of a 256x128 tile issue one m64n256k16 per K step of 16 (W's rows as the
wgmma's M, the tile's rows as its N) instead of two m64n128k16 that both read the same block of W: operand reads from
shared memory fall from 24 to 20 KB per K step of 16. It read 1.006-1.041x the plain tile in three interleaved
timings (entries 50, 64, 65) and was never run under sustained load, where the 700 W limit sets the clock. Needs
results/h200/fitted-copies/fitted_copies.patch (swap_ab rebuilt; its fit_rows is not used here).

The shape's config and the same with swap_ab: checked, then interleaved rounds (default), or --sustained S (each back
to back for S seconds with the SM clock and power sampled, benchmarks/power_probe). GPU only.

    PYTHONPATH=benchmarks python results/h200/swap-energy/swap_probe.py \\
        --shape fwd:llama4-scout:gate_up:4096:BLOCK_SIZE_M=256,... [--routing balanced] [--sustained 4]
"""

from __future__ import annotations

import argparse
import dataclasses
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
    named = [("plain", config, None), ("swap_ab", dataclasses.replace(config, swap_ab=True), None)]
    return modes.run_configs(problem, inputs, named, args, 72, f"m_sizes {inputs.m_sizes.tolist()}")


if __name__ == "__main__":
    sys.exit(main())
