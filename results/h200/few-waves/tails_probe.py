"""EXPERIMENT (docs/perf-notes.md, entry 59, call 2): what the ragged experts of mixtral-8x7b's dX gate_up at 4096
tokens cost our kernel.

Call 1 ran the suite's tile 1.05× the torch loop with every expert at 1024 rows and 0.955× at the suite's uniform
routing (989-1043 rows), where the loop ran as fast as at balanced routing. Here each routing is an m_sizes file
summing to the same 8192 rows, so only the experts' rows differ: half the experts T rows past 1024 (a merged
tail of T rows on their last M block's 16 tiles) and half T rows short (a last block T rows short, computed
whole). Each config is checked, then timed with the torch loop in interleaved rounds, one routing per round set.
Counted on paper (per tail tile, against a 1024-clock K step of 128×256×64): the tail's MMA is TAIL_ROWS/128 of
the tile's (25 % at 32 rows); its shared-memory traffic (W's tile read again as the tail's A operand, 32 KB, and
the tail's X rows) 288 clocks at 128 B per clock, 28 %, whatever its rows.
Usage: python3 tails_probe.py ROUNDS
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
       "use_tma_load_dy=1,use_tma_load_w=1,warp_specialize=1"
folder = Path(tempfile.mkdtemp())

print(probe.header(), f"{ROUNDS} rounds", flush=True)
for past in (0, 8, 16, 32):
    m_sizes = np.array([1024 + past, 1024 - past] * 4, dtype=np.int64)
    path = folder / f"rows_{past}.npy"
    np.save(path, m_sizes)
    problem = Problem("dx", 8, 4096, 28672, 4096, 2, permute="x", routing=str(path), gemm="gate_up")
    inputs = make_inputs(problem, "cuda")
    print(f"\nm_sizes {m_sizes.tolist()}", flush=True)
    extras = ["dynamic_schedule=1", ""]
    extras += [f"TAIL_ROWS={t},{s}" for t in (16, 32) if t >= past > 0 for s in ("dynamic_schedule=1", "")]
    variants = []
    for extra in extras:
        config = parse_config(problem, f"{TILE},{extra}")
        launcher = Launcher(problem, inputs, config)
        variants.append((config.to_string(), launcher, launcher.out))
    probe.compare(problem, inputs, variants, ROUNDS)
    del inputs, variants
