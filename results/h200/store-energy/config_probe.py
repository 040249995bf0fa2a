"""Probe (docs/perf-notes.md, entry 66): named configs of one shape, checked, then timed in interleaved rounds beside
the torch baselines (default) or each back to back under sustained load with the SM clock and power sampled
(--sustained S; benchmarks/power_probe). With --switch SUFFIX=VAR a config whose name ends in SUFFIX runs with VAR=1
(a probe patch's switch, such as column-tail's GEMMTUNE_COLUMN_TAIL), the others with VAR=0. GPU only.

    PYTHONPATH=benchmarks python results/h200/store-energy/config_probe.py --shape fwd:mixtral-8x7b:gate_up:16384 \\
        --config "suite=BLOCK_SIZE_M=256,..." --config "tma store=..." [--routing balanced] [--sustained 4]
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
    parser.add_argument("--switch", action="append", default=[], metavar="SUFFIX=VAR",
                        help="launch the configs whose name ends in SUFFIX with the environment variable VAR=1, the "
                             "others with VAR=0 (a probe patch's switch, read at each launch)")
    args = parser.parse_args(argv)
    problem, inputs, named = modes.named_configs(args.shape, args.config, args.routing)
    switches = [item.rsplit("=", 1) for item in args.switch]
    named = [(name, config, {var: "1" if name.endswith(suffix) else "0" for suffix, var in switches} or None)
             for name, config in named]
    return modes.run_configs(problem, inputs, named, args, 90, problem.describe())


if __name__ == "__main__":
    sys.exit(main())
