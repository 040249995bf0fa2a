"""The three modes shared by this folder's probes (docs/perf-notes.md, entry 65), over a list of variants, each
(name, zero-argument launch, the tensor it writes), on one problem:
- default: every variant checked against gemmtune's reference, then timed with the torch baselines in interleaved
  rounds (benchmarks/probe.compare);
- sustained: each back to back for that many seconds, then the torch loop and the first variant again, the SM clock
  and power sampled (benchmarks/power_probe.print_sustained_runs);
- launches: each launched that many times, for Nsight Compute.
Also what entry 66's probes (../step-sync/, ../store-energy/, ../k-order/, ../swap-energy/) share: their shape and
routing arguments (add_shape_arguments), a shape's named configs under a routing (named_configs), a launch with
environment variables set (with_env), named configs launched and run in one of the modes (run_configs), and a
launch's tile trace (traced_rows).
GPU only."""

from __future__ import annotations

import tempfile
from pathlib import Path

# The suite's llama4-scout gate_up configs at 4096 tokens that tail_probe.py and sync_probe.py vary.
COMMON = ("BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=4,use_tma_load_w=1,use_tma_load_x=1,pregather=1,"
          "warp_specialize=1")
SUITE = f"BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,TAIL_ROWS=32,{COMMON}"
ALIGNED_M_SIZES = [256] * 8 + [384, 128] * 4  # ragged experts of whole 128-row blocks (sum 4096)


def llama4_gate_up(routing: str):
    """(problem, inputs on the GPU) of llama4-scout's forward gate_up at 4096 tokens (the suite's problem:
    permute_x) under `routing`: uniform, balanced, aligned (ALIGNED_M_SIZES, through an m_sizes file) or a routing
    file (gemmtune.routing)."""
    import torch
    from ncu_probe import model_problem

    from gemmtune.problem import make_inputs

    if routing == "aligned":
        routing = str(Path(tempfile.mkdtemp()) / "aligned_m_sizes.pt")
        torch.save(torch.tensor(ALIGNED_M_SIZES), routing)
    problem = model_problem("llama4-scout", "gate_up", 4096, "fwd", routing)
    return problem, make_inputs(problem, "cuda")


def add_mode_arguments(parser) -> None:
    """--rounds, --sustained SECONDS and --launches N on an argparse parser."""
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--sustained", type=float)
    parser.add_argument("--launches", type=int)


def add_shape_arguments(parser, shape_help: str) -> None:
    """--shape (described by `shape_help`), --routing (gemmtune.routing's spec) and add_mode_arguments's, the
    arguments of the probes that take one shape under one routing (../k-order/, ../swap-energy/, ../store-energy/)."""
    parser.add_argument("--shape", required=True, help=shape_help)
    parser.add_argument("--routing", default="uniform", help="gemmtune.routing's spec (uniform, balanced, a file)")
    add_mode_arguments(parser)


def run(problem, inputs, variants, args, name_width: int = 28) -> int:
    """Run `variants` on `problem` in the mode `args` picks (add_mode_arguments); returns the exit status, 0."""
    import probe
    import torch
    from power_probe import print_sustained_runs

    from gemmtune.reference import baselines

    if args.launches:
        for _, launch, _ in variants:
            for _ in range(args.launches):
                launch()
        torch.cuda.synchronize()
        return 0
    if args.sustained is None:
        probe.compare(problem, inputs, variants, args.rounds)
        return 0
    for _, launch, _ in variants:  # compiled before the sampled runs
        launch()
    torch.cuda.synchronize()
    order = [(name, launch) for name, launch, _ in variants]
    order += [("torch_loop", baselines(problem, inputs)["torch_loop"]), (variants[0][0] + " (again)", variants[0][1])]
    print(problem.describe(), flush=True)
    print_sustained_runs(problem, order, args.sustained, torch, name_width)
    return 0


def named_configs(shape: str, items: list[str], routing: str = "uniform"):
    """(problem, inputs on the GPU, [(name, config)]) of shape 'mode:model:gemm:tokens' under `routing`
    (benchmarks/probe.shape) and configs given as 'name=config' (sass_report's form, parse_config)."""
    import probe

    problem = inputs = None
    named = []
    for item in items:
        name, text = item.split("=", 1)
        if problem is None:
            problem, inputs, config = probe.shape(f"{shape}:{text}", routing)
        else:
            config = probe.parse_config(problem, text)
        named.append((name, config))
    return problem, inputs, named


def with_env(launch, env: dict[str, str]):
    """`launch` with the environment variables `env` set before each of its calls (the probes' patches read theirs
    at each launch)."""
    import os

    def run():
        os.environ.update(env)
        return launch()
    return run


def run_configs(problem, inputs, named, args, name_width: int, about: str) -> int:
    """Launch each of `named` [(name, config, env)] on `inputs` (a Launcher each, made before any runs; with env, a dict
    of environment variables, under with_env), print the device header and `about`, then run them in the mode `args`
    picks (run). Returns run's exit status."""
    import probe

    from gemmtune.kernels import Launcher

    variants = []
    for name, config, env in named:
        launcher = Launcher(problem, inputs, config)
        variants.append((f"{name}: {config.to_string()}", with_env(launcher, env) if env else launcher, launcher.out))
    print(probe.header(), about, flush=True)
    return run(problem, inputs, variants, args, name_width)


def traced_rows(launch) -> list[list[int]]:
    """Three launches with GEMMTUNE_TRACE=1 (pair-grouped's trace.patch, also in ../step-sync/'s patches); of the
    last, one row per traced tile: (start ns, end ns, expert, m0, n0, SM, program, unused)."""
    import os

    import torch

    from gemmtune.kernels import fwd_ws

    os.environ["GEMMTUNE_TRACE"] = "1"
    for _ in range(3):
        launch()
    os.environ["GEMMTUNE_TRACE"] = "0"
    torch.cuda.synchronize()
    rows = fwd_ws.TRACES[-1].view(-1, 8).cpu()
    return rows[rows[:, 0] >= 0].tolist()
