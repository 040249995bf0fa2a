"""Time configs of one model GEMM in one process, or launch one a few times for Nsight Compute (GPU only).

    python benchmarks/ncu_probe.py --model llama4-scout --gemm gate_up --routing balanced \\
        --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_warps=8,num_stages=4,use_tma_load_w=1" --config "..."
    ncu --clock-control none -k regex:grouped_gemm --launch-skip 2 --launch-count 1 --section SpeedOfLight \\
        python benchmarks/ncu_probe.py ... --config "..." --launches 3

Without --launches, each config's median time (triton.testing.do_bench) and TF/s are printed, all in one
process against the same inputs, so their ratios come from one run; the first line names the GPU, the torch
and Triton versions and the problem. --torch times the torch baselines (gemmtune.reference.baselines) too,
first and again last (with --launches: launches each of them N times first, for the profiler). With --rounds
R, the configs (and with --torch the baselines) are timed instead in R interleaved rounds, the order rotated
each round (gemmtune.engine.retime, as the sweep's re-time), so a clock that drifts over the process moves
them all alike; each line gives the median and p20-p80 of all of a config's samples, and a config given twice
is timed once. --check first runs each config once into a NaN-poisoned output and compares it with the torch
reference (gemmtune.runner.check_output), one line per config. With --launches N, each config is only launched
N times (the first compiles), for a profiler to pick one launch. --config takes the same 'field=value,...'
form as benchmarks/sass_report.py.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys

import gemmtune  # noqa: F401  (first: settles the backend before the kernels load)
from sass_report import parse_config


def add_problem_arguments(parser: argparse.ArgumentParser, configs: bool = True) -> None:
    """The options that pick one model GEMM and its configs: --model, --gemm, --tokens, --mode, --routing and,
    with `configs`, --config (repeatable)."""
    parser.add_argument("--model", required=True)
    parser.add_argument("--gemm", required=True, choices=["gate_up", "down"])
    parser.add_argument("--tokens", type=int, default=4096)
    parser.add_argument("--mode", default="fwd", choices=["fwd", "dx", "dw"])
    parser.add_argument("--routing", default="uniform", help="uniform | balanced | zipf:S")
    if configs:
        parser.add_argument("--config", action="append", required=True)


def device_header() -> str:
    """The GPU's name and the torch and Triton versions, the first line of every probe's output."""
    import torch
    import triton

    return f"{torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}"


def model_problem(model: str, gemm: str, tokens: int, mode: str, routing: str = "uniform"):
    """The Problem of one GEMM ('gate_up' or 'down') of a model in gemmtune.models at `tokens` tokens. Raises
    StopIteration for a gemm the model does not have."""
    from gemmtune.models import layer_problems, load_model

    problem = next(p for p in layer_problems(load_model(model), [tokens], [mode]) if p.gemm == gemm)
    return dataclasses.replace(problem, routing=routing)


def problem_on_gpu(args):
    """(problem, inputs on the GPU) for add_problem_arguments' options; prints the GPU, the torch and Triton
    versions and the problem."""
    from gemmtune.problem import make_inputs

    problem = model_problem(args.model, args.gemm, args.tokens, args.mode, args.routing)
    inputs = make_inputs(problem, "cuda")
    print(f"{device_header()}: {problem.describe()}", flush=True)
    return problem, inputs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_problem_arguments(parser)
    parser.add_argument("--launches", type=int, help="launch each config this many times instead of timing it")
    parser.add_argument("--torch", action="store_true", help="time the torch baselines too, first and last")
    parser.add_argument("--rounds", type=int, help="time everything in this many interleaved rounds instead")
    parser.add_argument("--check", action="store_true", help="check each config against the reference first")
    args = parser.parse_args(argv)
    if args.rounds is not None and args.rounds < 1:
        parser.error(f"--rounds must be at least 1, got {args.rounds}")

    import torch
    import triton.testing

    from gemmtune.kernels import Launcher
    from gemmtune.reference import baselines

    problem, inputs = problem_on_gpu(args)
    torch_fns = list(baselines(problem, inputs).items()) if args.torch else []
    configs = [parse_config(problem, text) for text in args.config]
    config_fns = [(config.to_string(), Launcher(problem, inputs, config)) for config in configs]
    if args.check:
        check_configs(problem, inputs, configs, [launcher for _, launcher in config_fns])

    if args.launches:  # the torch baselines first, then each config (the first launch compiles)
        for name, fn in torch_fns + config_fns:
            for _ in range(args.launches):
                fn()
            torch.cuda.synchronize()
            print(name, flush=True)
        return 0
    if args.rounds:
        time_interleaved(problem, torch_fns + config_fns, args.rounds)
        return 0
    for name, fn in torch_fns + config_fns + torch_fns:  # the baselines first and again last
        ms = triton.testing.do_bench(fn, warmup=50, rep=300)
        print(f"{name:70s} {ms:.4f} ms {problem.flops / ms / 1e9:7.1f} TF/s", flush=True)
    return 0


def check_configs(problem, inputs, configs: list, launchers: list) -> None:
    """Run each config's Launcher once against the torch reference (with the config's fuse_mul_post); print
    its status and relative error."""
    from gemmtune.reference import reference
    from gemmtune.runner import check_output

    refs = {}
    for config, launcher in zip(configs, launchers):
        fuse = config.fuse_mul_post
        if fuse not in refs:
            refs[fuse] = reference(problem, inputs, fuse_mul_post=fuse)
        checked = check_output(launcher, launcher.out, refs[fuse], problem.dtype)
        print(f"{config.to_string():70s} check {checked.status} (relative error {checked.rel_err:.2e}) "
              f"{checked.error}", flush=True)


def time_interleaved(problem, named_fns: list, rounds: int, ratios: bool = False) -> list[dict]:
    """Time (name, callable) pairs in `rounds` interleaved rounds of do_bench at the sweep's re-time budget
    (gemmtune.engine.retime.retime_do_bench), a name given twice once; print one line each, with `ratios` also
    the first one's time over this one's (above 1: faster than the first). Returns retime_interleaved's
    summaries, in the printed order."""
    from gemmtune.engine.retime import retime_do_bench

    named = {}
    for name, fn in named_fns:
        named.setdefault(name, fn)
    timings = retime_do_bench(list(named.values()), rounds)
    first = timings[0].get("median_ms")
    for name, timing in zip(named, timings):
        if "error" in timing:
            print(f"{name:70s} error: {timing['error']}", flush=True)
            continue
        ms = timing["median_ms"]
        ratio = f"  first/this {first / ms:.3f}" if ratios and first else ""
        print(f"{name:70s} {ms:.4f} ms {problem.flops / ms / 1e9:7.1f} TF/s{ratio}  (p20-p80 {timing['p20_ms']:.4f}-"
              f"{timing['p80_ms']:.4f} ms, {timing['samples']} samples)", flush=True)
    return timings


if __name__ == "__main__":
    sys.exit(main())
