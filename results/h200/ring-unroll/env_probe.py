"""One config launched with an environment variable set per launch (probe; needs the call's patch or tree).

One process: the config given, launched with --env NAME set to each of --variants in turn, and the torch
baselines. By default all are timed in interleaved rounds at the sweep's re-time budget
(benchmarks/ncu_probe.time_interleaved), each variant first checked against the reference. With --sustained S
each is instead launched back to back for S seconds, in the order given, then the torch loop and the first
variant again, with the SM clock and power sampled (benchmarks/power_probe.py's Sampler and sustained): a
variant that spends fewer joules per flop runs at a higher clock under the 700 W limit, one that saves cycles
runs more TF/s per GHz.

    python env_probe.py --model mixtral-8x7b --gemm gate_up --config "..." --env GEMMTUNE_RING_ALIGNED \
        --variants 0,1 [--sustained 4]
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "benchmarks"))

import gemmtune  # noqa: F401,E402
from ncu_probe import add_problem_arguments, check_configs, problem_on_gpu, time_interleaved  # noqa: E402
from power_probe import Sampler, sustained  # noqa: E402
from sass_report import parse_config  # noqa: E402


def with_env(name: str, value: str, fn):
    def launch():
        os.environ[name] = value
        return fn()
    return launch


def main() -> int:
    parser = argparse.ArgumentParser()
    add_problem_arguments(parser)
    parser.add_argument("--env", required=True)
    parser.add_argument("--variants", default="0,1")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--sustained", type=float)
    args = parser.parse_args()

    import torch

    from gemmtune.kernels import Launcher
    from gemmtune.reference import baselines

    problem, inputs = problem_on_gpu(args)
    config = parse_config(problem, args.config[0])
    launcher = Launcher(problem, inputs, config)
    variants = args.variants.split(",")
    torch_fns = baselines(problem, inputs)
    if args.sustained is None:
        for v in variants:
            os.environ[args.env] = v
            print(f"{args.env}={v}:", end=" ", flush=True)
            check_configs(problem, inputs, [config], [launcher])
        named = list(torch_fns.items())
        named += [(f"{config.to_string()} {args.env}={v}", with_env(args.env, v, launcher)) for v in variants]
        time_interleaved(problem, named, args.rounds)
        return 0

    for v in variants:  # compile every variant before the sampled runs
        with_env(args.env, v, launcher)()
    torch.cuda.synchronize()
    order = [(f"{args.env}={v}", with_env(args.env, v, launcher)) for v in variants]
    order += [("torch_loop", torch_fns["torch_loop"]), (f"{args.env}={variants[0]} (again)", order[0][1])]
    sampler = Sampler()
    sampler.start()
    print(f"{config.to_string()}\n{'candidate':32s} {'ms':>8s} {'TF/s':>7s} {'SM MHz':>7s} {'W':>6s} {'TF/s per GHz':>12s}",
          flush=True)
    for name, fn in order:
        ms, start, end, _ = sustained(fn, args.sustained, torch)
        clock, power, count = sampler.window(start, end)
        tflops = problem.flops / ms / 1e9
        print(f"{name:32s} {ms:8.4f} {tflops:7.1f} {clock:7.0f} {power:6.0f} {tflops / clock * 1e3:12.1f}  "
              f"({count} samples)", flush=True)
    sampler.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
