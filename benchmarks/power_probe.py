"""Run configs and the torch baselines of one model GEMM under sustained load, with SM clock and power sampled.

    python benchmarks/power_probe.py --model mixtral-8x7b --gemm gate_up --seconds 4 \\
        --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_warps=8,num_stages=4,use_tma_load_w=1" --config "..."

On the H200 these GEMMs run power-limited (700 W): the SM clock falls from 1980 MHz to about 1.4-1.7 GHz,
so TF/s is clock × the tensor pipe's busy share, and a kernel that spends fewer joules per flop runs at a
higher clock. For each candidate (every --config, then each torch baseline, then the first config again to
show drift), this launches it back to back for --seconds while a thread samples `nvidia-smi --query-gpu=
clocks.sm,power.draw` and prints its TF/s over that window beside the median SM clock (MHz) and power (W)
of the samples taken in it. It then lists the CUDA kernels each torch baseline launches (torch.profiler),
whose names carry cuBLAS's tile shape and cluster size. GPU only.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import threading
import time

import gemmtune  # noqa: F401  (first: settles the backend before the kernels load)
from ncu_probe import add_problem_arguments, problem_on_gpu
from sass_report import parse_config


class Sampler(threading.Thread):
    """Polls nvidia-smi for (host time s, SM clock MHz, power W) of GPU 0 until stopped."""

    def __init__(self):
        super().__init__(daemon=True)
        self.samples: list[tuple[float, float, float]] = []
        self._halt = threading.Event()

    def run(self):
        query = ["nvidia-smi", "-i", "0", "--query-gpu=clocks.sm,power.draw", "--format=csv,noheader,nounits"]
        while not self._halt.is_set():
            out = subprocess.run(query, capture_output=True, text=True).stdout.strip()
            try:
                clock, power = (float(v) for v in out.split(","))
            except ValueError:
                continue
            self.samples.append((time.time(), clock, power))

    def window(self, start: float, end: float) -> tuple[float, float, int]:
        """Median clock and power of the samples taken between host times start and end, and their count."""
        inside = [(c, p) for t, c, p in self.samples if start <= t <= end]
        if not inside:
            return float("nan"), float("nan"), 0
        return statistics.median(c for c, _ in inside), statistics.median(p for _, p in inside), len(inside)

    def stop(self):
        self._halt.set()
        self.join()


def sustained(fn, seconds: float, torch) -> tuple[float, float, float, int]:
    """Launch fn back to back for about `seconds` after a 0.5 s warm-up; (ms per call, start, end, calls)."""
    deadline = time.time() + 0.5
    while time.time() < deadline:
        fn()
    torch.cuda.synchronize()
    start = time.time()
    calls = 0
    while time.time() - start < seconds:
        for _ in range(5):
            fn()
        calls += 5
        torch.cuda.synchronize()
    end = time.time()
    return (end - start) * 1e3 / calls, start, end, calls


def sustained_runs(candidates, seconds: float, torch):
    """Each (name, fn) of `candidates` launched back to back for about `seconds` (sustained), in order, with
    nvidia-smi sampled meanwhile (Sampler); yields (name, ms per call, median SM clock in MHz, median power in W,
    sample count) as each finishes, so a caller can print it at once."""
    sampler = Sampler()
    sampler.start()
    try:
        for name, fn in candidates:
            ms, start, end, _ = sustained(fn, seconds, torch)
            yield (name, ms, *sampler.window(start, end))
    finally:
        sampler.stop()


def cuda_kernels(fn, torch) -> list[tuple[str, float]]:
    """The GPU kernels one call of fn launches, in launch order: (name, µs), from torch.profiler. Names of cuBLAS
    kernels carry their tile shape and cluster size."""
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    return [(event.name, event.time_range.elapsed_us()) for event in prof.events() if event.device_type.name == "CUDA"]


def print_sustained_runs(problem, candidates, seconds: float, torch, name_width: int = 72) -> None:
    """sustained_runs of `candidates` on `problem`, a line each as it finishes: ms per call, TF/s (problem.flops),
    median SM clock (MHz) and power (W), and TF/s per GHz of that clock (work per clock: a lever that saves cycles
    raises it, one that saves energy raises the clock under the power limit)."""
    print(f"{'candidate':{name_width}s} {'ms':>8s} {'TF/s':>7s} {'SM MHz':>7s} {'W':>6s} {'TF/s per GHz':>12s}",
          flush=True)
    for name, ms, clock, power, count in sustained_runs(candidates, seconds, torch):
        tflops = problem.flops / ms / 1e9
        print(f"{name:{name_width}s} {ms:8.4f} {tflops:7.1f} {clock:7.0f} {power:6.0f} {tflops / clock * 1e3:12.1f}  "
              f"({count} samples)", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_problem_arguments(parser)
    parser.add_argument("--seconds", type=float, default=4.0,
                        help="sustained run per candidate; the power reading lags by about a second, so use several")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error(f"--seconds must be positive, got {args.seconds}")

    import torch

    from gemmtune.kernels import Launcher
    from gemmtune.reference import baselines

    problem, inputs = problem_on_gpu(args)

    torch_fns = baselines(problem, inputs)
    candidates = {}
    for text in args.config:
        config = parse_config(problem, text)
        candidates.setdefault(config.to_string(), Launcher(problem, inputs, config))
    first = next(iter(candidates))
    order = [*candidates.items(), *torch_fns.items(), (f"{first} (again)", candidates[first])]

    print_sustained_runs(problem, order, args.seconds, torch)

    for name, fn in torch_fns.items():
        kernels = sorted({kernel for kernel, _ in cuda_kernels(fn, torch)})
        print(f"{name} kernels:", *(f"  {k}" for k in kernels), sep="\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
