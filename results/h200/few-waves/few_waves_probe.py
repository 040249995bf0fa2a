"""EXPERIMENT (docs/perf-notes.md, entry 59): does a partly filled last wave cost time where each tile is long?

Entry 48 found no staircase of time against tile count at 14.5-31 waves of 56-79 µs. mixtral-8x7b's dX gate_up
at 4096 tokens has 1,024 tiles of 128×256 (7.76 waves of 132 programs), each a 448-step reduction, so a wave
lasts about 0.4 ms: long enough that the clock may not make up for idle SMs. In the suite it ran 0.96× the torch
loop, where the same kernel at 16384 tokens (31.8 waves) ran 1.06×.

1. Staircase: balanced routing (1024 rows per expert, every tile the same), dX's output columns K stepped so the
   tile count crosses wave boundaries; each size checked, then timed beside the torch loop in interleaved
   rounds (the sweep's re-time). Time that follows ceil(tiles / SMs) keeps µs per wave flat; time that follows
   the tile count keeps µs per tile flat.
2. The suite's shape (uniform routing): the suite's best config against the same tile with a static schedule
   and without merged tails, interleaved with torch.
Usage: python3 few_waves_probe.py ROUNDS
"""
import math
import sys

sys.path.insert(0, "benchmarks")
import gemmtune  # noqa: F401
import torch

import probe
from gemmtune.engine.retime import RETIME, retime_interleaved
from gemmtune.kernels import Launcher
from gemmtune.kernels.common import num_sms
from gemmtune.problem import Problem, make_inputs
from gemmtune.reference import baselines, reference
from gemmtune.runner import check_output
from sass_report import parse_config

ROUNDS = int(sys.argv[1])
SMS = num_sms()
TILE = "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,GROUP_SIZE_M=8,num_warps=8,num_stages=3," \
       "use_tma_load_dy=1,use_tma_load_w=1,warp_specialize=1"


def staircase(schedule: str):
    print(f"\nmixtral-8x7b dX gate_up, balanced (1024 rows per expert), dX's K varied: {TILE},{schedule}", flush=True)
    print(f"{'K':>6} {'tiles':>6} {'waves':>6} {'ours ms':>8} {'loop ms':>8} {'loop/ours':>9} "
          f"{'us/tile':>8} {'us/wave':>8}", flush=True)
    for k in range(3584, 4608 + 1, 128):
        problem = Problem("dx", 8, 4096, 28672, k, 2, permute="x", routing="balanced", gemm="gate_up")
        inputs = make_inputs(problem, "cuda")
        config = parse_config(problem, f"{TILE},{schedule}")
        ours = Launcher(problem, inputs, config)
        checked = check_output(ours, ours.out, reference(problem, inputs), problem.dtype)
        loop = baselines(problem, inputs)["torch_loop"]
        t_ours, t_loop = retime_interleaved([ours, loop], "do_bench", ROUNDS, RETIME["warmup_ms"], RETIME["rep_ms"])
        tiles = 8 * (1024 // 128) * math.ceil(k / 256)
        ms, loop_ms = t_ours["median_ms"], t_loop["median_ms"]
        print(f"{k:6d} {tiles:6d} {tiles / SMS:6.2f} {ms:8.4f} {loop_ms:8.4f} {loop_ms / ms:9.3f} "
              f"{1e3 * ms / tiles:8.3f} {1e3 * ms / math.ceil(tiles / SMS):8.1f}  check {checked.status}", flush=True)
        del inputs, ours, loop
        torch.cuda.empty_cache()


print(probe.header(), f"{SMS} SMs, {ROUNDS} rounds", flush=True)
staircase("dynamic_schedule=1")
staircase("dynamic_schedule=0")
print("\nThe suite's shape, uniform routing: its best config first", flush=True)
problem, inputs, _ = probe.shape(f"dx:mixtral-8x7b:gate_up:4096:{TILE}")
variants = []
for extra in ("TAIL_ROWS=32,dynamic_schedule=1", "TAIL_ROWS=32", "dynamic_schedule=1", ""):
    config = parse_config(problem, f"{TILE},{extra}")
    launcher = Launcher(problem, inputs, config)
    variants.append((config.to_string(), launcher, launcher.out))
probe.compare(problem, inputs, variants, ROUNDS)
