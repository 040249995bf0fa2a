"""Re-time configs of a results file again in a fresh process: does a sweep's pick hold up? (GPU only.)

    python benchmarks/retime_again.py results/h200/x.parquet --mode fwd --gemm gate_up --M 16384 \\
        --config "fwd BM128 BN256 BK64 G8 w8 s3 tma[w,x] pregather" --config "fwd BM128 ..." [--rounds 8]

A sweep that re-times k configs and keeps the fastest reports the lowest of k noisy medians, which reads
a little fast (the more configs, the more so). Timing the pick again beside the others, with nothing chosen
from this run, measures how far ahead it really is. Each --config names a row of the file by its config
string (as `gemmtune show` prints it); the row gives the problem (its routing and seed included) and the
knobs. Each config is checked against the torch reference, then all of them and the torch baselines are
timed in interleaved rounds (benchmarks/probe.compare), with ratios against the first --config.
"""

from __future__ import annotations

import argparse
import sys

import gemmtune  # noqa: F401  (picks the backend before anything imports triton)
from gemmtune.results import KernelResult, read_results


def rows_of(path, mode: str, gemm: str, M: int, configs: list[str]) -> list[KernelResult]:
    """The results of `configs` (config strings) for the problem (mode, gemm, M) of the file, in that order.
    Raises ValueError naming a config string the file does not hold for that problem."""
    df, _ = read_results(path)
    problem = df[(df["mode"] == mode) & (df["gemm"] == gemm) & (df["M"] == M)]
    found = []
    for text in configs:
        match = problem[problem["config"] == text]
        if match.empty:
            raise ValueError(f"{path} has no {mode} {gemm} M={M} row with config {text!r}")
        found.append(KernelResult.from_dict(match.iloc[0].to_dict()))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("--mode", required=True, choices=["fwd", "dx", "dw"])
    parser.add_argument("--gemm", required=True)
    parser.add_argument("--M", type=int, required=True)
    parser.add_argument("--config", action="append", required=True)
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    try:
        results = rows_of(args.results, args.mode, args.gemm, args.M, args.config)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    import probe
    from gemmtune.kernels import Launcher
    from gemmtune.problem import make_inputs

    problem = results[0].problem
    inputs = make_inputs(problem, "cuda")
    print(probe.header(), flush=True)
    variants = []
    for result in results:
        launcher = Launcher(problem, inputs, result.kernel_config)
        variants.append((result.kernel_config.to_string(), launcher, launcher.out))
    probe.compare(problem, inputs, variants, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
