"""Probe (docs/perf-notes.md, entry 68, call 3): named configs of one shape, each launched as built (GEMMTUNE_HALVES=0)
or, for a name that ends in " halves", with GEMMTUNE_HALVES=1 (`halves.patch`: a 256-column forward block as two
128-column wgmmas per K slice). Checked, then interleaved beside the torch baselines or under sustained load
(pair-grouped/modes.py). GPU only.

    PYTHONPATH=benchmarks python results/h200/spread-tail/halves_probe.py --shape fwd:llama4-scout:gate_up:4096 \\
        --config "spread16=BLOCK_SIZE_M=128,..." --config "spread16 halves=BLOCK_SIZE_M=128,..." [--sustained 4]
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
    modes.add_shape_arguments(parser, "mode:model:gemm:tokens")
    parser.add_argument("--config", action="append", required=True, help="name=config (sass_report's form)")
    args = parser.parse_args(argv)
    problem, inputs, named = modes.named_configs(args.shape, args.config, args.routing)
    named = [(name, config, {"GEMMTUNE_HALVES": "1" if name.endswith(" halves") else "0"}) for name, config in named]
    return modes.run_configs(problem, inputs, named, args, 90, problem.describe())


if __name__ == "__main__":
    sys.exit(main())
