"""EXPERIMENT (docs/perf-notes.md, entry 59, call 5): is dX's merged tail dearer than the forward's?

Calls 3-4: on mixtral-8x7b's dX gate_up at 4096 tokens a tile with a merged tail cost about twice a tile without
one (every expert at 1032 rows: +12 % over 1024 rows for 128 tail tiles of 1,024), where entry 52 measured the
forward's tail at 1.3-2.1× its MMA share. dX's tail wgmma takes W's block as its A operand transposed (W[e] is
(reduction, output) there, its rows contiguous along the output), the forward's as it lies. Here the forward on
the same GEMM shape as that dX (output 4096 columns, reduction 28672, no permutation) and the dX itself, each at
1024 and 1032 rows per expert, the same 128×256 tile with and without merged tails, interleaved per routing.
Usage: python3 tail_orientation_probe.py ROUNDS
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
COMMON = "GROUP_SIZE_M=8,num_warps=8,num_stages=3,use_tma_load_w=1,warp_specialize=1,dynamic_schedule=1"
TILES = {
    "fwd": "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,use_tma_load_x=1," + COMMON,
    "dx": "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,use_tma_load_dy=1," + COMMON,
}
# The forward of (output 4096, reduction 28672) is W (E, 4096, 28672); dX of mixtral's gate_up is W (E, 28672, 4096).
SHAPES = {"fwd": (4096, 28672), "dx": (28672, 4096)}
folder = Path(tempfile.mkdtemp())

print(probe.header(), f"{ROUNDS} rounds", flush=True)
for mode in ("fwd", "dx"):
    for rows in (1024, 1032):
        path = folder / f"rows_{rows}.npy"
        np.save(path, np.array([rows] * 8, dtype=np.int64))
        N, K = SHAPES[mode]
        problem = Problem(mode, 8, rows * 4, N, K, 2, permute="none", routing=str(path), gemm="probe")
        inputs = make_inputs(problem, "cuda")
        print(f"\n{mode}: m_sizes {inputs.m_sizes.tolist()}", flush=True)
        variants = []
        for extra in ("", "TAIL_ROWS=16", "TAIL_ROWS=32"):
            config = parse_config(problem, f"{TILES[mode]},{extra}")
            launcher = Launcher(problem, inputs, config)
            variants.append((config.to_string(), launcher, launcher.out))
        probe.compare(problem, inputs, variants, ROUNDS)
        del inputs, variants
