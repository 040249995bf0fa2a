"""Probe (docs/perf-notes.md, entry 63): does the re-time's rotation favour or penalize a launcher by the one
before it?

gemmtune.engine.retime.retime_interleaved rotates its launchers by one per round, so the cyclic order never changes
and each launcher always runs right after the same neighbour: in a sweep the best-screened config after
torch_grouped_mm, torch_loop after the k-th config. In gluon-groups call 1, configs whose tile schedules are the
same (GROUP_SIZE_M 8, 16 and 32 where an expert has at most 8 blocks) read up to 2.5 % apart, the slowest the one
after torch_grouped_mm. Here the same config is built COPIES times (separate Launchers, identical kernels and
schedules) and timed with the torch baselines, in the sweep's order (copies first, then the baselines):
- "rotated": retime_interleaved's order, rotated by one per round (what the sweep does);
- "shuffled": a new random order every round (seeded), so no launcher keeps a neighbour.
Each arm runs `rounds` rounds at the sweep's re-time budget (RETIME) and prints each launcher's median, p20-p80 and
ratio to torch_loop. Copies that differ under "rotated" but not under "shuffled" measure the neighbour's effect.

    PYTHONPATH=benchmarks python results/h200/retime-order/order_probe.py \\
        --shape "fwd:llama4-scout:gate_up:4096:BLOCK_SIZE_M=256,..." --copies 3 --rounds 6

GPU only.
"""

from __future__ import annotations

import argparse
import random

import gemmtune  # noqa: F401  (first: settles the backend before Triton loads)
import probe

from gemmtune.engine.retime import RETIME, round_rep_ms, summarize
from gemmtune.kernels import Launcher
from gemmtune.reference import baselines
from gemmtune.runner import time_samples


def timed(launchers: list, rounds: int, order_of_round) -> list[dict]:
    """Each launcher's summary over `rounds` rounds at RETIME's budget, round r in the order order_of_round(r)."""
    samples = [[] for _ in launchers]
    for r in range(rounds):
        for i in order_of_round(r):
            rep = round_rep_ms("do_bench", RETIME["rep_ms"], RETIME["min_samples"], samples[i])
            samples[i].extend(time_samples(launchers[i], "do_bench", RETIME["warmup_ms"], rep))
    return [summarize(s) for s in samples]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", action="append", required=True, help="mode:model:gemm:tokens:config")
    parser.add_argument("--copies", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(probe.header(), flush=True)
    for spec in args.shape:
        problem, inputs, config = probe.shape(spec)
        copies = [Launcher(problem, inputs, config) for _ in range(args.copies)]
        torch_fns = baselines(problem, inputs)
        names = [f"copy {i + 1}" for i in range(args.copies)] + list(torch_fns)
        launchers = copies + list(torch_fns.values())
        for launcher in launchers:  # compile, load, warm once before either arm
            launcher()
        n = len(launchers)
        rng = random.Random(args.seed)
        arms = {"rotated": lambda r: [(j + r) % n for j in range(n)],
                "shuffled": lambda r: rng.sample(range(n), n)}
        print(problem.describe(), config.to_string(), sep="\n", flush=True)
        for arm, order in arms.items():
            summaries = dict(zip(names, timed(launchers, args.rounds, order)))
            loop = summaries["torch_loop"]["median_ms"]
            for name, s in summaries.items():
                print(f"  {arm:8s} {name:18s} {s['median_ms']:.4f} ms  loop/this {loop / s['median_ms']:.3f}  "
                      f"(p20-p80 {s['p20_ms']:.4f}-{s['p80_ms']:.4f}, {s['samples']} samples)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
