"""EXPERIMENT (entry 48): is mixtral-8x7b's forward at 512 tokens held back by power or by how W streams?

1. Each GEMM's best config of the 512-token sweep (../retime-budget/) with X as drawn, X all zero and W all zero,
   interleaved (gemmtune.engine.retime, the sweep's re-time): zero operands draw less power in the tensor cores
   (entry 48: X all zero ran llama4-scout's gate_up at 4096 tokens 1.17x faster), while W's bytes stay the same.
   If the zero-operand runs are much faster, the power limit holds the kernel back, not the weight reads.
2. The weight-read rate with little MMA work beside it: mixtral's gate_up at 64 and 128 tokens (16 and 32 rows
   per expert) with llama4-scout's 512-token config (97 % of its floor there).
Each time is printed as its share of the weight-read floor, weight bytes / 4.3 TB/s (benchmarks/suite.py).
Usage: python3 inputs_probe.py ROUNDS
"""
import dataclasses
import sys

sys.path.insert(0, "benchmarks")
import gemmtune  # noqa: F401
import torch

import probe
from gemmtune.engine.retime import RETIME, retime_interleaved
from gemmtune.kernels import Launcher
from gemmtune.reference import reference
from gemmtune.runner import check_output
from suite import MEMORY_TBPS

ROUNDS = int(sys.argv[1])


def floor_ms(problem):
    return problem.E * problem.N * problem.K * 2 / (MEMORY_TBPS * 1e12) * 1e3


def time_variants(spec, zero_inputs):
    problem, inputs, config = probe.shape(spec)
    print(f"\n{problem.describe()}  {config.to_string()}  floor {floor_ms(problem):.4f} ms", flush=True)
    variants = [("as drawn", inputs)]
    if zero_inputs:
        variants += [("x all zero", dataclasses.replace(inputs, x=torch.zeros_like(inputs.x))),
                     ("w all zero", dataclasses.replace(inputs, w=torch.zeros_like(inputs.w)))]
    launchers = [Launcher(problem, v, config) for _, v in variants]
    checked = check_output(launchers[0], launchers[0].out, reference(problem, inputs), problem.dtype)
    print(f"  as drawn: check {checked.status}", flush=True)
    timings = retime_interleaved(launchers, "do_bench", ROUNDS, RETIME["warmup_ms"], RETIME["rep_ms"])
    first = timings[0]["median_ms"]
    for (name, _), t in zip(variants, timings):
        ms = t["median_ms"]
        print(f"  {name:12s} {ms:.4f} ms  {100 * floor_ms(problem) / ms:4.0f} % of the floor  as drawn/this "
              f"{first / ms:.3f}  (p20-p80 {t['p20_ms']:.4f}-{t['p80_ms']:.4f}, {t['samples']} samples)", flush=True)
    del inputs, launchers
    torch.cuda.empty_cache()


print(probe.header(), f"{ROUNDS} rounds", flush=True)
BEST = "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=4,TAIL_ROWS=32," \
       "use_tma_load_w=1,use_tma_load_x=1,warp_specialize=1"
time_variants(f"fwd:mixtral-8x7b:gate_up:512:{BEST},pregather=1", True)
time_variants(f"fwd:mixtral-8x7b:down:512:{BEST}", True)
SMALL = "BLOCK_SIZE_M=64,BLOCK_SIZE_N=128,BLOCK_SIZE_K=128,GROUP_SIZE_M=8,num_warps=4,num_stages=4,use_tma_load_w=1," \
        "warp_specialize=1"
for tokens in (64, 128):
    time_variants(f"fwd:mixtral-8x7b:gate_up:{tokens}:{SMALL}", False)
