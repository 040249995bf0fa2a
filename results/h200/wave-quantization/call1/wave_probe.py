"""EXPERIMENT (entry 48): what a partly filled last wave costs, and what zero rows in X save.

1. Staircase. One config, balanced routing (every expert the same rows, so every tile costs the same), timed at
   output sizes (N in the forward, K in dX) that step the tile count across wave boundaries (NUM_SMS programs
   of the persistent grid), beside the torch per-expert loop, each size in its own interleaved rounds
   (gemmtune.engine.retime, the sweep's re-time) after a check against the reference. If the time follows
   ceil(tiles / SMs), balancing the last wave could gain up to (ceil(w) - w) / ceil(w); if it follows the tile
   count, it cannot.
2. Zero rows. One config at uniform routing, X as drawn against X with a share of its token rows zeroed (the
   share of rows the kernel computes past an expert's end) and X all zero, interleaved; the same kernel on all.
Usage: python3 wave_probe.py ROUNDS
"""
import dataclasses
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
GLUON = "GROUP_SIZE_M=8,num_warps=8,num_stages=4,pregather=1,dynamic_schedule=1,warp_specialize=1"


def staircase(label, make_problem, sizes, config_text, tiles_of):
    print(f"\n{label}: {config_text}", flush=True)
    print(f"{'size':>6} {'tiles':>6} {'waves':>6} {'ours ms':>8} {'loop ms':>8} {'loop/ours':>9} "
          f"{'ours us/tile':>12} {'ours us/wave':>12}", flush=True)
    for size in sizes:
        problem = make_problem(size)
        inputs = make_inputs(problem, "cuda")
        config = parse_config(problem, config_text)
        ours = Launcher(problem, inputs, config)
        checked = check_output(ours, ours.out, reference(problem, inputs), problem.dtype)
        loop = baselines(problem, inputs)["torch_loop"]
        t_ours, t_loop = retime_interleaved([ours, loop], "do_bench", ROUNDS, RETIME["warmup_ms"], RETIME["rep_ms"])
        tiles = tiles_of(problem, config)
        waves = tiles / SMS
        ms, loop_ms = t_ours["median_ms"], t_loop["median_ms"]
        print(f"{size:6d} {tiles:6d} {waves:6.2f} {ms:8.4f} {loop_ms:8.4f} {loop_ms / ms:9.3f} "
              f"{1e3 * ms / tiles:12.3f} {1e3 * ms / math.ceil(waves):12.2f}  check {checked.status}", flush=True)
        del inputs, ours, loop
        torch.cuda.empty_cache()


def fwd_tiles(problem, config):
    m_sizes = problem.make_routing().m_sizes.tolist()
    return sum(-(-m // config.BLOCK_SIZE_M) for m in m_sizes) * -(-problem.N // config.BLOCK_SIZE_N)


def dx_tiles(problem, config):
    m_sizes = problem.make_routing().m_sizes.tolist()
    return sum(-(-m // config.BLOCK_SIZE_M) for m in m_sizes) * -(-problem.K // config.BLOCK_SIZE_K)


def zero_rows(spec, share):
    problem, inputs, config = probe.shape(spec)
    print(f"\nzero rows: {problem.describe()}  {config.to_string()}", flush=True)
    gen = torch.Generator(device="cuda").manual_seed(1)
    rows = inputs.x.shape[0]
    some = inputs.x.clone()
    some[torch.randperm(rows, generator=gen, device="cuda")[: round(share * rows)]] = 0
    variants = [("x as drawn", inputs), (f"{share:.1%} of x's rows zero", dataclasses.replace(inputs, x=some)),
                ("x all zero", dataclasses.replace(inputs, x=torch.zeros_like(inputs.x)))]
    launchers = [Launcher(problem, v, config) for _, v in variants]
    checked = check_output(launchers[0], launchers[0].out, reference(problem, inputs), problem.dtype)
    print(f"  x as drawn: check {checked.status}", flush=True)
    timings = retime_interleaved(launchers, "do_bench", ROUNDS, RETIME["warmup_ms"], RETIME["rep_ms"])
    first = timings[0]["median_ms"]
    for (name, _), t in zip(variants, timings):
        print(f"  {name:24s} {t['median_ms']:.4f} ms  as drawn/this {first / t['median_ms']:.3f}  "
              f"(p20-p80 {t['p20_ms']:.4f}-{t['p80_ms']:.4f}, {t['samples']} samples)", flush=True)


print(probe.header(), f"{SMS} SMs, {ROUNDS} rounds", flush=True)
staircase("llama4-scout gate_up fwd, balanced (256 rows per expert), N varied",
          lambda n: Problem("fwd", 16, 4096, n, 5120, 1, permute="x", routing="balanced", gemm="gate_up"),
          range(15360, 17408 + 1, 128),
          "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,use_tma_load_w=1,use_tma_load_x=1," + GLUON, fwd_tiles)
staircase("mixtral-8x7b down dX, balanced (1024 rows per expert), K (dX's columns) varied",
          lambda k: Problem("dx", 8, 4096, 4096, k, 2, permute="y", routing="balanced", gemm="down"),
          range(12288, 16384 + 1, 256),
          "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=256,use_tma_load_dy=1,use_tma_load_w=1," + GLUON, dx_tiles)
# llama4-scout's gate_up at 4096 tokens, uniform routing: its 256-row merged-tail tiles compute 6.2 % more rows
# than are routed (docs/perf-notes.md, "Not yet tried").
zero_rows("fwd:llama4-scout:gate_up:4096:BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,TAIL_ROWS=32,"
          "use_tma_load_w=1,use_tma_load_x=1," + GLUON, 0.062)
