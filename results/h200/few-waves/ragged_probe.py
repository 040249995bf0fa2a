"""EXPERIMENT (docs/perf-notes.md, entry 59, calls 3-4): which part of ragged experts costs mixtral-8x7b's dX gate_up.

Call 2: with every expert at 1024 rows the suite's tile ran 2.75 ms; with half the experts 8 rows past 1024 and
half 8 short (the same 8192 rows, the same 1,024 tiles once the tails merge) 2.98-3.00 ms, +8-9 %, where the
tails hold 0.8-1.6 % of the MMA work. Ragged experts change three things at once: merged tails, last M blocks
that run past their expert (computed whole, stored in part), and experts of unequal size. Here each comes alone,
through the token count M (every expert the same rows) or an m_sizes file:
  - 1024 rows each (M 4096): none of the three;
  - 1016 rows each (M 4064): every expert's last block 8 rows short, no tail;
  - 1032 rows each (M 4128): every expert 8 rows past its 8 blocks: a merged tail, or a 9th block without one;
  - 1152 and 896 rows, alternating (M 4096): unequal experts, every block whole.
Each routing's configs are checked, then timed with the torch loop in interleaved rounds.
Call 4 (`--tails-everywhere`): call 3 found the merged tails of the 1032-row experts 12 % slower than 1024 rows
without tails. Do the tail configs cost that on routings where no tile has a tail? Every routing gets the
tail configs, and the suite's uniform routing is added.
Usage: python3 ragged_probe.py ROUNDS [--tails-everywhere]
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
EVERYWHERE = "--tails-everywhere" in sys.argv[2:]
TILE = "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,GROUP_SIZE_M=8,num_warps=8,num_stages=3," \
       "use_tma_load_dy=1,use_tma_load_w=1,warp_specialize=1"
folder = Path(tempfile.mkdtemp())

print(probe.header(), f"{ROUNDS} rounds", flush=True)
ROUTINGS = [([1024] * 8, False), ([1016] * 8, False), ([1032] * 8, True), ([1152, 896] * 4, False)]
if EVERYWHERE:
    ROUTINGS = [([1024] * 8, True), ([1016] * 8, True), (None, True)]
for rows, tails in ROUTINGS:
    if rows is None:  # the suite's routing
        problem = Problem("dx", 8, 4096, 28672, 4096, 2, permute="x", routing="uniform", gemm="gate_up")
    else:
        path = folder / f"rows_{rows[0]}_{rows[1]}.npy"
        np.save(path, np.array(rows, dtype=np.int64))
        problem = Problem("dx", 8, sum(rows) // 2, 28672, 4096, 2, permute="x", routing=str(path), gemm="gate_up")
    inputs = make_inputs(problem, "cuda")
    print(f"\nm_sizes {inputs.m_sizes.tolist()}", flush=True)
    extras = ["dynamic_schedule=1", ""]
    if tails:
        extras += [f"TAIL_ROWS={t},{s}" for t in (16, 32) for s in ("dynamic_schedule=1", "")]
    variants = []
    for extra in extras:
        config = parse_config(problem, f"{TILE},{extra}")
        launcher = Launcher(problem, inputs, config)
        variants.append((config.to_string(), launcher, launcher.out))
    probe.compare(problem, inputs, variants, ROUNDS)
    del inputs, variants
