"""Y's store hints under sustained load (probe; needs store_hint.patch applied).

One process: the config given, launched back to back for --seconds with GEMMTUNE_STORE_HINT set to each
variant in turn (0 as shipped, 2 st.global.cs, 4 the stores skipped: wrong output, timing only), then the
torch loop, then variant 0 again, with the SM clock and power sampled (benchmarks/power_probe.py's Sampler
and sustained). A variant that spends fewer joules per flop runs at a higher clock under the 700 W limit; one
that saves cycles runs more TF/s per MHz.

    python store_hint_power.py --model mixtral-8x7b --gemm gate_up --config "..." --variants 0,4,2
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "benchmarks"))

import gemmtune  # noqa: F401,E402
from ncu_probe import add_problem_arguments, problem_on_gpu  # noqa: E402
from power_probe import Sampler, sustained  # noqa: E402
from sass_report import parse_config  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    add_problem_arguments(parser)
    parser.add_argument("--variants", default="0,4,2")
    parser.add_argument("--seconds", type=float, default=4.0)
    args = parser.parse_args()

    import torch

    from gemmtune.kernels import Launcher
    from gemmtune.reference import baselines

    problem, inputs = problem_on_gpu(args)
    config = parse_config(problem, args.config[0])
    launcher = Launcher(problem, inputs, config)
    variants = list(map(int, args.variants.split(",")))
    for v in variants:  # compile every variant before the sampled runs
        os.environ["GEMMTUNE_STORE_HINT"] = str(v)
        launcher()
    torch.cuda.synchronize()
    order = [(f"hint {v}", v, launcher) for v in variants]
    order.append(("torch_loop", None, baselines(problem, inputs)["torch_loop"]))
    order.append((f"hint {variants[0]} (again)", variants[0], launcher))

    sampler = Sampler()
    sampler.start()
    print(f"{config.to_string()}\n{'candidate':24s} {'ms':>8s} {'TF/s':>7s} {'SM MHz':>7s} {'W':>6s} {'TF/s per GHz':>12s}",
          flush=True)
    for name, variant, fn in order:
        if variant is not None:
            os.environ["GEMMTUNE_STORE_HINT"] = str(variant)
        ms, start, end, _ = sustained(fn, args.seconds, torch)
        clock, power, count = sampler.window(start, end)
        tflops = problem.flops / ms / 1e9
        print(f"{name:24s} {ms:8.4f} {tflops:7.1f} {clock:7.0f} {power:6.0f} {tflops / clock * 1e3:12.1f}  "
              f"({count} samples)", flush=True)
    sampler.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
