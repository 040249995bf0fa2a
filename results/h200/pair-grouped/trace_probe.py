"""Probe (docs/perf-notes.md, entry 65): when an expert's two 128-row blocks of one column run, on llama4-scout's
gate_up at 4096 tokens (the suite problem: permute_x, pregather), under a routing.

Needs trace.patch: with GEMMTUNE_TRACE=1 at a launch, the Gluon forward kernel's MMA warps record per tile id its start
and end (%globaltimer, ns), expert, m0, n0, SM and program (gemmtune.kernels.fwd_ws.TRACES). Per config: one plain
launch, then three traced ones; the last is read. Printed per expert: its rows, its pairs of blocks (same expert and
column), the median and largest gap between the two blocks' starts, and the median tile time. Call 4 found the blocks'
L2 reads merged (so read at about the same time) with whole blocks and parted with uniform routing's partial blocks
and tails. GPU only.

    PYTHONPATH=benchmarks python results/h200/pair-grouped/trace_probe.py --routing uniform --config "..."
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[3] / "benchmarks"))

import gemmtune  # noqa: E402,F401  (first: settles the backend before Triton loads)
import modes  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--routing", default="uniform", help="uniform | balanced | aligned (as tail_probe.py)")
    parser.add_argument("--config", action="append", required=True)
    parser.add_argument("--split-steps", type=int, default=80)
    args = parser.parse_args(argv)

    import probe
    from sass_report import parse_config

    from gemmtune import pruning
    from gemmtune.kernels import Launcher

    pruning.TAIL_SPLIT_STEPS = args.split_steps
    problem, inputs = modes.llama4_gate_up(args.routing)
    sizes = inputs.m_sizes.tolist()
    print(probe.header(), f"routing {args.routing}, m_sizes {sizes}", flush=True)
    for text in args.config:
        config = parse_config(problem, text)
        launcher = Launcher(problem, inputs, config)
        launcher()
        rows = modes.traced_rows(launcher)
        first = min(r[0] for r in rows)
        pairs: dict[tuple[int, int], list[list[int]]] = {}
        for r in rows:
            pairs.setdefault((r[2], r[4]), []).append(r)
        print(f"\n{config.to_string()}: {len(rows)} tiles, launch {(max(r[1] for r in rows) - first) / 1e3:.1f} us",
              flush=True)
        print(f"{'expert':>6s} {'rows':>5s} {'pairs':>5s} {'start gap median us':>20s} {'max us':>7s} "
              f"{'tile median us':>15s}", flush=True)
        for e in range(problem.E):
            gaps = [abs(ts[0][0] - ts[1][0]) / 1e3 for (ee, _), ts in pairs.items() if ee == e and len(ts) == 2]
            times = [(r[1] - r[0]) / 1e3 for r in rows if r[2] == e]
            if gaps:
                print(f"{e:6d} {sizes[e]:5d} {len(gaps):5d} {statistics.median(gaps):20.2f} {max(gaps):7.2f} "
                      f"{statistics.median(times):15.2f}", flush=True)
        all_gaps = [abs(ts[0][0] - ts[1][0]) / 1e3 for ts in pairs.values() if len(ts) == 2]
        print(f"all pairs: {len(all_gaps)}, start gap median {statistics.median(all_gaps):.2f} us, "
              f"p90 {sorted(all_gaps)[int(0.9 * len(all_gaps))]:.2f} us", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
