"""Probe (docs/perf-notes.md, entry 57): the Gluon kernels' loop and branch conditions made warp-uniform.

ptxas keeps a K loop's wgmma descriptors on the uniform datapath only when the loop runs under uniform control.
The Gluon forward/dX kernels bound their tile loops by scalars reduced from the per-expert vectors (shuffles),
which ptxas cannot prove uniform, so every K step builds its descriptors in vector registers and moves them by
R2UR: 85 instructions per 128×256 K step, against 54-59 with the bounds passed through redux.sync
(gemmtune.kernels.hopper_ws.warp_uniform; sass_report, sm_90). This probe times each config both ways in one
process (hopper_ws.UNIFORM_CONTROL_DEFAULT switched before each launch), and, on one expert, the grouped 192-row
kernel (gemmtune.kernels.fwd_ws3) beside the dense probe of entry 56.

    PYTHONPATH=benchmarks python results/h200/uniform-control/uniform_probe.py --one-expert
    PYTHONPATH=benchmarks python results/h200/uniform-control/uniform_probe.py --shape "fwd:mixtral-8x7b:gate_up:4096:..."
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "three-warpgroups"))

import gemmtune  # noqa: E402,F401  (first: settles the backend before Triton loads)
import probe  # noqa: E402
import torch  # noqa: E402

from gemmtune.kernels import Launcher, fwd_ws3, hopper_ws  # noqa: E402
from sass_report import parse_config  # noqa: E402


def switched(launcher, uniform: bool, constexpr_k: bool = False, skip_empty_slabs: bool = False):
    """launcher, launched with the uniform control on or off (and fwd_ws3's K-step count a constexpr or not, its
    loader skipping the X slabs past an expert's end or not; call 1 ran before the skip existed)."""

    def launch():
        hopper_ws.UNIFORM_CONTROL_DEFAULT = uniform
        fwd_ws3.CONSTEXPR_K_STEPS = constexpr_k
        fwd_ws3.SKIP_EMPTY_SLABS_DEFAULT = skip_empty_slabs
        return launcher()

    return launch


def both_ways(problem, inputs, text: str) -> list:
    """(name, launch, out) for one config, divergent then uniform; once, as it is, for a text that starts with
    '=' (a config of the plain kernels, which have no such switch); for a 192-row config, uniform without and
    with the skipped slabs."""
    from gemmtune.pruning import uses_three_warpgroups

    config = parse_config(problem, text.lstrip("="))
    if text.startswith("="):
        launcher = Launcher(problem, inputs, config)
        return [(config.to_string(), launcher, launcher.out)]
    variants = []
    if uses_three_warpgroups(config):
        for skip in (False, True):
            launcher = Launcher(problem, inputs, config)
            variants.append((f"{config.to_string()} uniform{' skip_empty_slabs' if skip else ''}",
                             switched(launcher, True, skip_empty_slabs=skip), launcher.out))
        return variants
    for uniform in (False, True):
        launcher = Launcher(problem, inputs, config)
        variants.append((f"{config.to_string()} {'uniform' if uniform else 'divergent'}",
                         switched(launcher, uniform), launcher.out))
    return variants


def one_expert(rounds: int) -> None:
    """Mixtral's gate_up sizes on one expert (M 9216): the dense probe's kernels, the grouped 192-row kernel
    divergent, uniform and uniform with a constexpr K-step count, and the shipped Gluon 128×256 both ways."""
    import three_wg_probe as dense
    from gemmtune.problem import Problem, make_inputs

    problem = Problem(mode="fwd", E=1, M=9216, N=28672, K=4096, topk=1, routing="balanced")
    inputs = make_inputs(problem, "cuda")
    a, b = inputs.x, inputs.w[0]
    variants = []
    for name, (num_wg, stages) in (("probe 192x256 3wg s3", (3, 3)), ("probe 128x256 2wg s4", (2, 4))):
        c = torch.empty(problem.M, problem.N, dtype=torch.bfloat16, device="cuda")

        def launch(c=c, num_wg=num_wg, stages=stages):
            dense.launch(a, b, c, num_wg, stages)
            return c

        variants.append((name, launch, c))
    f192 = parse_config(problem, "BLOCK_SIZE_M=192,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=12,num_stages=3,"
                                 "use_tma_load_w=1,use_tma_load_x=1,warp_specialize=1")
    for label, uniform, constexpr_k in (("divergent", False, False), ("uniform", True, False),
                                        ("uniform constexpr K", True, True)):
        launcher = Launcher(problem, inputs, f192)
        variants.append((f"grouped 192x256 {label}", switched(launcher, uniform, constexpr_k), launcher.out))
    variants += both_ways(problem, inputs, "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=8,"
                                           "num_stages=4,use_tma_load_w=1,use_tma_load_x=1,warp_specialize=1")
    probe.compare(problem, inputs, variants, rounds, torch_baselines=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one-expert", action="store_true")
    parser.add_argument("--shape", action="append", default=[],
                        help="mode:model:gemm:tokens:config[;config...]: each config both ways ('=config': once)")
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    print(probe.header(), flush=True)
    if args.one_expert:
        one_expert(args.rounds)
    for spec in args.shape:
        head, _, configs = spec.rpartition(":")
        problem, inputs, _ = probe.shape(f"{head}:")
        variants = [v for text in configs.split(";") for v in both_ways(problem, inputs, text)]
        probe.compare(problem, inputs, variants, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
