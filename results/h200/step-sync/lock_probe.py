"""Probe (docs/perf-notes.md, entry 66): how many of a launch's W-sharing block pairs run in lock step, on one shape
under its suite routing, per config.

Call 2 found that two programs' reads of one W block merge (Nsight Compute's L2 Request Coalescer, "hardware"
coalescing) when their tiles start together (0.00-0.03 us apart in the traces), whichever SMs they run on, and that a
pair which starts apart stays apart. A pair here is two tiles of one expert and output column whose row blocks are 2i and 2i + 1 (the
static schedule gives them to programs 2j and 2j + 1). Needs step_sync.patch (its tile trace).

Modes (pair-grouped's modes.py): checked, then interleaved rounds (default); --sustained S; --launches N (for Nsight
Compute); --trace: three traced launches per config, and of the last, per quarter of the launch (by the pair's first
start), the pairs, the share of them whose starts are under 0.1 us apart, and the median gap. GPU only.

    PYTHONPATH=benchmarks python results/h200/step-sync/lock_probe.py --shape fwd:mixtral-8x7b:gate_up:16384 \\
        --config "suite=BLOCK_SIZE_M=256,..." --config "static=..." [--trace | --launches 2]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.append(str(ROOT / "benchmarks"))
sys.path.append(str(ROOT / "results" / "h200" / "pair-grouped"))

import gemmtune  # noqa: E402,F401  (first: settles the backend before Triton loads)
import modes  # noqa: E402

LOCKED_US = 0.1


def print_locks(name: str, launch, block_m: int) -> None:
    """Three traced launches of `launch`; of the last, the lock-step share of its W-sharing pairs per quarter."""
    rows = modes.traced_rows(launch)  # (start, end, expert, m0, n0, sm, program)
    first, last = min(r[0] for r in rows), max(r[1] for r in rows)
    groups: dict = {}
    for r in rows:
        groups.setdefault((r[2], r[4], r[3] // (2 * block_m)), []).append(r)
    pairs = [g for g in groups.values() if len(g) == 2]
    print(f"\n{name}: {len(rows)} tiles, {len(pairs)} W-sharing pairs, launch {(last - first) / 1e3:.1f} us, "
          f"tile median {statistics.median((r[1] - r[0]) / 1e3 for r in rows):.2f} us", flush=True)
    quarters: list[list[float]] = [[], [], [], []]
    for a, b in pairs:
        quarter = min(3, int(4 * (min(a[0], b[0]) - first) / (last - first)))
        quarters[quarter].append(abs(a[0] - b[0]) / 1e3)
    for i, gaps in enumerate(quarters):
        if gaps:
            locked = sum(g < LOCKED_US for g in gaps) / len(gaps)
            print(f"  quarter {i + 1}: {len(gaps):5d} pairs, {100 * locked:5.1f} % under {LOCKED_US} us apart, "
                  f"gap median {statistics.median(gaps):.2f} us", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", required=True, help="mode:model:gemm:tokens")
    parser.add_argument("--config", action="append", required=True, help="name=config (sass_report's form)")
    parser.add_argument("--trace", action="store_true")
    modes.add_mode_arguments(parser)
    args = parser.parse_args(argv)

    import probe

    from gemmtune.kernels import Launcher

    problem, inputs, named = modes.named_configs(args.shape, args.config)
    variants = []
    for name, config in named:
        launcher = Launcher(problem, inputs, config)
        variants.append((name, launcher, launcher.out, config))
    print(probe.header(), problem.describe(), flush=True)
    if args.trace:
        for name, launch, _, config in variants:
            launch()
            print_locks(name, launch, config.BLOCK_SIZE_M)
        return 0
    return modes.run(problem, inputs, [v[:3] for v in variants], args)


if __name__ == "__main__":
    sys.exit(main())
