"""Y's stores with an L2 eviction hint (probe; needs store_hint.patch applied).

One process: the config given, launched with GEMMTUNE_STORE_HINT set per launch (0 as shipped, 1 the stores
with eviction_policy="evict_first" (st.global.L1::evict_first.L2::cache_hint, an L2 evict_first policy),
2 with cache_modifier=".cs" (st.global.cs), 4 every store of Y skipped behind a branch never taken, so the
sums stay live: a bound, wrong output on purpose), and the torch baselines, all timed in interleaved rounds
at the sweep's re-time budget (benchmarks/ncu_probe.time_interleaved). Variants 0, 1 and 2 are checked
against the reference first.

    python store_hint_probe.py --model mixtral-8x7b --gemm gate_up --tokens 4096 --mode fwd \
        --config "BLOCK_SIZE_M=128,..." --variants 0,1,2,4
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "benchmarks"))

import gemmtune  # noqa: F401,E402
from ncu_probe import add_problem_arguments, check_configs, problem_on_gpu, time_interleaved  # noqa: E402
from sass_report import parse_config  # noqa: E402


def with_hint(variant: int, launcher):
    def launch():
        os.environ["GEMMTUNE_STORE_HINT"] = str(variant)
        return launcher()
    return launch


def main() -> int:
    parser = argparse.ArgumentParser()
    add_problem_arguments(parser)
    parser.add_argument("--variants", default="0,1,2,4")
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()

    from gemmtune.kernels import Launcher
    from gemmtune.reference import baselines

    problem, inputs = problem_on_gpu(args)
    config = parse_config(problem, args.config[0])
    launcher = Launcher(problem, inputs, config)
    variants = list(map(int, args.variants.split(",")))
    for v in [v for v in variants if v != 4]:
        os.environ["GEMMTUNE_STORE_HINT"] = str(v)
        print(f"hint {v}:", end=" ", flush=True)
        check_configs(problem, inputs, [config], [launcher])
    named = list(baselines(problem, inputs).items())
    for v in variants:
        fn = with_hint(v, launcher)
        fn()  # compiles this variant outside the timed rounds
        named.append((f"{config.to_string()} hint {v}", fn))
    time_interleaved(problem, named, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
