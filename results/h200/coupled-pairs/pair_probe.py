"""Probe (docs/perf-notes.md, entry 63): is the CTA pair kept in step a lever for gemmtune's own kernel?

Entry 62's dense probe (results/h200/pair-multicast/pair_gemm.py) gained 1.0-3.4 % over its "plain" variant by
coupling a CTA pair's ring releases ("coupled"), but its plain variant is not the shipped kernel: 3 ring stages and a
TMA store, no GROUP_SIZE_M swizzle over 132 programs, no dynamic schedule. Before the coupling is built into the
grouped Gluon kernel, this probe times, in one process per dense shape (one expert, E=1, routing balanced):
- pair_gemm's plain, coupled and multicast variants at 3 stages of 64 columns;
- the shipped Gluon forward kernel (gemmtune.kernels.Launcher) on the same problem, in the configs given;
- torch.mm (the torch loop on one expert) and torch._grouped_mm;
checked against the torch reference, then timed in interleaved rounds (benchmarks/probe.py). With --seconds, every
candidate then runs back to back under sustained load with the SM clock and power sampled
(benchmarks/power_probe.py), for entry 62's open question whether multicast raises the clock.

    PYTHONPATH=benchmarks python results/h200/coupled-pairs/pair_probe.py --shape 8192,8192,8192 \\
        --config "BLOCK_SIZE_M=128,...,warp_specialize=1" --rounds 6 --seconds 3

GPU (sm_90) only.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# Appended, not prepended: that folder has a probe.py of its own, and `probe` here is benchmarks/probe.py.
sys.path.append(str(Path(__file__).parent.parent / "pair-multicast"))

import gemmtune  # noqa: F401,E402  (first: settles the backend before Triton loads)
import probe  # noqa: E402
import torch  # noqa: E402

from gemmtune.kernels import Launcher  # noqa: E402
from gemmtune.problem import Problem, make_inputs  # noqa: E402
from gemmtune.reference import baselines  # noqa: E402
from pair_gemm import PairGemm  # noqa: E402
from power_probe import print_sustained_runs  # noqa: E402
from sass_report import parse_config  # noqa: E402

PAIR_VARIANTS = {"pair plain": 0, "pair multicast": 1, "pair coupled": 2}


def variants(problem: Problem, inputs, configs: list[str]) -> list[tuple]:
    """(name, launch, out) of the pair variants and the shipped kernel in each config."""
    found = []
    for name, multicast in PAIR_VARIANTS.items():
        pair = PairGemm(inputs.x, inputs.w[0], multicast=multicast)
        found.append((name, pair, pair.y))
    for text in configs:
        config = parse_config(problem, text)
        launcher = Launcher(problem, inputs, config)
        found.append((f"shipped {config.to_string()}", launcher, launcher.out))
    return found


def under_load(problem: Problem, named: list[tuple], seconds: float) -> None:
    """Each candidate back to back for `seconds`, then the first again: ms, TF/s, median SM clock and power."""
    print_sustained_runs(problem, named + [(f"{named[0][0]} (again)", named[0][1])], seconds, torch, 96)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", action="append", required=True, help="M,N,K of a dense GEMM (one expert)")
    parser.add_argument("--config", action="append", default=[], help="a shipped config, 'field=value,...'")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=0.0, help="sustained load per candidate (0: none)")
    args = parser.parse_args()
    print(probe.header(), flush=True)
    for shape in args.shape:
        M, N, K = (int(v) for v in shape.split(","))
        problem = Problem(mode="fwd", E=1, M=M, N=N, K=K, topk=1, routing="balanced")
        inputs = make_inputs(problem, "cuda")
        named = variants(problem, inputs, args.config)
        probe.compare(problem, inputs, named, args.rounds)
        if args.seconds > 0:
            under_load(problem, [(name, fn) for name, fn, _ in named] + list(baselines(problem, inputs).items()),
                       args.seconds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
