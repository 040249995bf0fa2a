"""Probe (docs/perf-notes.md, entry 67): one config and the torch loop under several routings of one shape, all in one
process, so that each routing's time can be compared with the others' (routing-16384 ran each routing in a process
of its own, where the loop's own TF/s moved 1.8 % between two processes of one routing). GPU only.

Every routing routes the same M·topk rows (checked), so the flops, the X and W values (make_inputs draws them from
the problem's seed) and the TF/s denominator are the same; only m_sizes and gather_indices differ. Each routing's
launch is checked against the reference, then all are timed in interleaved rounds (benchmarks/ncu_probe's
time_interleaved), or with --sustained S each back to back for S seconds with the SM clock and power sampled
(benchmarks/power_probe), ours and the loop per routing in the order given, then the first again; with --launches N
ours alone N times per routing, in the order given, for Nsight Compute.

    PYTHONPATH=benchmarks python results/h200/ragged-cost/routing_probe.py --shape fwd:mixtral-8x7b:gate_up:16384 \\
        --config "BLOCK_SIZE_M=256,..." --routing balanced=balanced --routing aligned=/tmp/m_sizes.pt [--sustained 4]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.append(str(ROOT / "benchmarks"))

import gemmtune  # noqa: E402,F401  (first: settles the backend before Triton loads)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", required=True, help="mode:model:gemm:tokens")
    parser.add_argument("--config", required=True, help="sass_report's form: field=value,...")
    parser.add_argument("--routing", action="append", required=True,
                        help="name=spec, gemmtune.routing's spec (uniform, balanced, a .pt file); repeat")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--sustained", type=float)
    parser.add_argument("--launches", type=int, help="launch ours this many times per routing, nothing else")
    args = parser.parse_args(argv)

    import probe
    import torch
    from ncu_probe import time_interleaved
    from power_probe import print_sustained_runs

    from gemmtune.kernels import Launcher
    from gemmtune.reference import baselines, reference
    from gemmtune.runner import check_output

    print(probe.header(), flush=True)
    first = None
    ours, loops = [], []
    for item in args.routing:
        name, spec = item.split("=", 1)
        problem, inputs, config = probe.shape(f"{args.shape}:{args.config}", spec)
        if first is None:
            first = problem
        elif problem.flops != first.flops:
            parser.error(f"routing {name} routes other rows than {args.routing[0]}: the TF/s would not compare")
        launcher = Launcher(problem, inputs, config)
        sizes = inputs.m_sizes.tolist()
        print(f"{name}: m_sizes {sizes} (min {min(sizes)}, max {max(sizes)})", flush=True)
        if args.launches:
            for _ in range(args.launches):
                launcher()
            torch.cuda.synchronize()
            continue
        if args.sustained is None:
            checked = check_output(launcher, launcher.out, reference(problem, inputs), problem.dtype)
            print(f"  {name}: check {checked.status} (rel err {checked.rel_err:.2e})", flush=True)
        else:
            launcher()  # compiled before the sampled runs
        ours.append((f"ours, {name}", launcher))
        loops.append((f"torch_loop, {name}", baselines(problem, inputs)["torch_loop"]))
    torch.cuda.synchronize()
    if args.launches:
        return 0
    print(first.describe(), config.to_string(), flush=True)
    if args.sustained is None:
        named = ours + loops
        timings = time_interleaved(first, named, args.rounds, ratios=True)
        ms = {name: t["median_ms"] for (name, _), t in zip(named, timings) if "median_ms" in t}
        print("routing: ours / torch loop; ours and the loop against the first routing (its time over this one's)")
        base_ours, base_loop = ms.get(ours[0][0]), ms.get(loops[0][0])
        for (name, _), (loop_name, _) in zip(ours, loops):
            if name in ms and loop_name in ms and base_ours and base_loop:
                print(f"  {name.removeprefix('ours, '):12s} {ms[loop_name] / ms[name]:.3f}"
                      f"   ours {base_ours / ms[name]:.3f}   loop {base_loop / ms[loop_name]:.3f}", flush=True)
        return 0
    order = [pair for both in zip(ours, loops) for pair in both] + [(ours[0][0] + " (again)", ours[0][1])]
    print_sustained_runs(first, order, args.sustained, torch, 28)
    return 0


if __name__ == "__main__":
    sys.exit(main())
