"""Where a merged tail's time goes (probe, wrong outputs on purpose; needs tail_probe.patch applied).

One process: one Gluon forward config with TAIL_ROWS, launched with GEMMTUNE_TAIL_PROBE set per launch
(bit 1 skips the tail's MMA, bit 2 its store behind a never-true branch, bit 4 its TMA load), the same
config without TAIL_ROWS, and the torch baselines, all timed in interleaved rounds at the sweep's re-time
budget (benchmarks/ncu_probe.time_interleaved). Variant 0 and the variants that compute the whole result
(8, 16, 32) are checked against the reference first.

    python tail_probe.py --model mixtral-8x7b --gemm gate_up --tokens 4128 --routing m_sizes.pt \
        --config "BLOCK_SIZE_M=128,...,TAIL_ROWS=32,..." --variants 0,1,2,4,7
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "benchmarks"))

import gemmtune  # noqa: F401,E402
from ncu_probe import add_problem_arguments, check_configs, problem_on_gpu, time_interleaved  # noqa: E402
from sass_report import parse_config  # noqa: E402


def with_probe(variant: int, launcher):
    def launch():
        os.environ["GEMMTUNE_TAIL_PROBE"] = str(variant)
        return launcher()
    return launch


def main() -> int:
    parser = argparse.ArgumentParser()
    add_problem_arguments(parser)
    parser.add_argument("--variants", default="0,1,2,4,7")
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()

    import dataclasses

    from gemmtune.kernels import Launcher
    from gemmtune.reference import baselines

    problem, inputs = problem_on_gpu(args)
    config = parse_config(problem, args.config[0])
    no_tail = dataclasses.replace(config, TAIL_ROWS=0)
    os.environ["GEMMTUNE_TAIL_PROBE"] = "0"
    launcher = Launcher(problem, inputs, config)
    plain = Launcher(problem, inputs, no_tail)
    check_configs(problem, inputs, [config, no_tail], [launcher, plain])
    for v in sorted({8, 16, 32} & set(map(int, args.variants.split(",")))):
        os.environ["GEMMTUNE_TAIL_PROBE"] = str(v)
        print(f"probe {v}:", end=" ", flush=True)
        check_configs(problem, inputs, [config], [launcher])
    named = list(baselines(problem, inputs).items())
    for v in map(int, args.variants.split(",")):
        fn = with_probe(v, launcher)
        fn()  # compiles this variant outside the timed rounds
        named.append((f"{config.to_string()} probe {v}", fn))
    named.append((no_tail.to_string(), with_probe(0, plain)))
    time_interleaved(problem, named, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
