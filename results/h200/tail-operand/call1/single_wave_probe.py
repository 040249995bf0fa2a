"""EXPERIMENT: what a merged tail costs mixtral-8x7b's dX gate_up tile (448 K steps) when no schedule is around it.

Entry 59 read 1.8-2.3x per tailed tile off whole launches of 7.76 waves, where entry 52 had read 1.46x on 64-step
tiles. Here the same 128x256 tile runs where every program has one tile and all tiles are alike: 128 rows per
expert (128 tiles, no tail) against 136 (the same 128 tiles, each with a 16-row merged tail, or 256 tiles without
merged tails), so the launch time is one tile's time. 1024 and 1032 rows per expert, entry 59's case, run beside
them in the same process. Each routing is an m_sizes file; its configs are checked, then timed with the torch
loop in interleaved rounds.
Usage: python3 single_wave_probe.py ROUNDS
"""
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, "benchmarks")
import gemmtune  # noqa: F401
import numpy as np

import probe
from gemmtune.kernels import Launcher
from gemmtune.problem import Problem, make_inputs
from sass_report import parse_config

ROUNDS = int(sys.argv[1])
TILE = "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,GROUP_SIZE_M=8,num_warps=8,num_stages=3," \
       "use_tma_load_dy=1,use_tma_load_w=1,warp_specialize=1,dynamic_schedule=1"
folder = Path(tempfile.mkdtemp())

print(probe.header(), f"{ROUNDS} rounds", flush=True)
for rows in (128, 136, 1024, 1032):
    path = folder / f"rows_{rows}.npy"
    np.save(path, np.array([rows] * 8, dtype=np.int64))
    problem = Problem("dx", 8, rows * 8 // 2, 28672, 4096, 2, permute="x", routing=str(path), gemm="gate_up")
    inputs = make_inputs(problem, "cuda")
    print(f"\nm_sizes {inputs.m_sizes.tolist()}", flush=True)
    variants = []
    for extra in ("", "TAIL_ROWS=16"):
        config = parse_config(problem, f"{TILE},{extra}")
        launcher = Launcher(problem, inputs, config)
        variants.append((config.to_string(), launcher, launcher.out))
    probe.compare(problem, inputs, variants, ROUNDS)
    del inputs, variants
