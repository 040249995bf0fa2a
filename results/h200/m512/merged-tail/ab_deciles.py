"""A/B of mixtral-8x7b's forward at 512 tokens: configs and torch's loop in interleaved rounds, deciles of all samples."""
import sys
sys.path.insert(0, "benchmarks")
import numpy as np
import torch
import gemmtune  # noqa: F401
from ncu_probe import problem_on_gpu
from sass_report import parse_config
from gemmtune.kernels import Launcher
from gemmtune.reference import baselines
from gemmtune.runner import time_samples

T = "use_tma_load_w=1,use_tma_load_x=1,GROUP_SIZE_M=8,BLOCK_SIZE_K=64"
CONFIGS = {
    "gate_up": [f"{T},BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_warps=8,num_stages=4,TAIL_ROWS=32,pregather=1,warp_specialize=1",
                f"{T},BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_warps=8,num_stages=4,TAIL_ROWS=0,pregather=1,warp_specialize=1",
                f"{T},BLOCK_SIZE_M=128,BLOCK_SIZE_N=128,num_warps=4,num_stages=6,TAIL_ROWS=32,pregather=1,warp_specialize=1",
                f"{T},BLOCK_SIZE_M=64,BLOCK_SIZE_N=256,num_warps=4,num_stages=5,pregather=1"],
    "down": [f"{T},BLOCK_SIZE_M=128,BLOCK_SIZE_N=128,num_warps=4,num_stages=6,TAIL_ROWS=32,warp_specialize=1",
             f"{T},BLOCK_SIZE_M=128,BLOCK_SIZE_N=128,num_warps=4,num_stages=6,TAIL_ROWS=0,warp_specialize=1",
             f"{T},BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,num_warps=8,num_stages=4,TAIL_ROWS=32,warp_specialize=1",
             f"{T},BLOCK_SIZE_M=64,BLOCK_SIZE_N=128,num_warps=4,num_stages=4,BLOCK_SIZE_K=128",
             f"{T},BLOCK_SIZE_M=128,BLOCK_SIZE_N=128,num_warps=8,num_stages=5"],
}
ROUNDS = 10


class Args:
    model, tokens, mode, routing = "mixtral-8x7b", 512, "fwd", "uniform"


for gemm, texts in CONFIGS.items():
    args = Args()
    args.gemm = gemm
    problem, inputs = problem_on_gpu(args)
    weight_ms = problem.E * problem.N * problem.K * 2 / 4.3e12 * 1e3
    fns = {"torch_loop": baselines(problem, inputs)["torch_loop"]}
    for text in texts:
        config = parse_config(problem, text)
        fns[config.to_string()] = Launcher(problem, inputs, config)
    samples = {name: [] for name in fns}
    names = list(fns)
    for r in range(ROUNDS):
        for name in names[r % len(names):] + names[:r % len(names)]:
            samples[name] += time_samples(fns[name], "do_bench", 5, 50)
    print(f"weight-read floor {weight_ms:.4f} ms; deciles 10..90 % of {ROUNDS} interleaved rounds (ms)")
    for name, values in samples.items():
        d = np.quantile(values, np.linspace(0.1, 0.9, 9))
        print(f"{name:72s} median {np.median(values):.4f} ({100 * weight_ms / np.median(values):.0f} % of floor), "
              f"n {len(values)}: " + " ".join(f"{v:.4f}" for v in d), flush=True)
