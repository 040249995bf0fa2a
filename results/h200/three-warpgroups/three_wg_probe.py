"""Probe (docs/perf-notes.md, entry 56): a 192×256 tile over three MMA warpgroups in 12 warps, dense GEMM.

Entry 28's three MMA partitions beside a one-warp loader made 13 warps, padded to 16, whose `.maxnreg 128` left
ptxas too few registers for a 64×256 accumulator. Here the loader is folded into the first MMA partition:
three partitions of 4 warps each (384 threads, `.maxnreg 168`), partition 0 also issuing the TMA loads of the
ring, STAGES - 1 steps ahead, once every partition has released the slot (the `empty` barrier counts one
arrival per partition). Each partition computes 64 rows × 256 columns of the tile with one m64n256k16 per
k16, as each warpgroup of the shipped 128×256 tile does, and stores its rows from registers in 128-byte
lines (gemmtune.kernels.fwd_ws.store_rows). NUM_WG = 2 builds the same kernel over 128×256 tiles.

C (M, N) = A (M, K) · B (N, K)ᵀ in bf16, persistent over tiles in GROUP_SIZE_M order; M a multiple of the tile's
rows, N of 256, K of 64 (a probe, no masks on the loads). A 192×256 tile reads 56 KB of operands per 6.3 MFLOP
per K step, 22 % fewer bytes per flop than 128×256 (48 KB per 4.2 MFLOP).

    python three_wg_probe.py --compile-only          # sm_90 build on a machine without a GPU: registers, SASS
    python three_wg_probe.py --M 9216 --N 28672 --K 4096 [--sustained 4]   # on the H200
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "benchmarks"))
if "--compile-only" in sys.argv:
    os.environ["TRITON_INTERPRET"] = "0"  # compile for sm_90 without a GPU, as benchmarks/sass_report.py does

import gemmtune  # noqa: E402,F401  (first: settles the backend before Triton loads)
import triton  # noqa: E402
from triton.experimental import gluon  # noqa: E402
from triton.experimental.gluon import language as gl  # noqa: E402
from triton.experimental.gluon.language.nvidia.hopper import mbarrier, tma, warpgroup_mma, warpgroup_mma_wait  # noqa: E402

from gemmtune.kernels.common import swizzle_tile  # noqa: E402
from gemmtune.kernels.fwd_ws import store_rows  # noqa: E402
from gemmtune.kernels.hopper_ws import accumulator_layout, filled_slot, free_slot, release_previous_slot  # noqa: E402

WG_ROWS = gl.constexpr(64)
BN = gl.constexpr(256)
BK = gl.constexpr(64)


@gluon.jit
def issue_loads(a_desc, b_desc, a_slots, b_slots, ready, empty, load_step, total_steps, pid, num_m_tiles,
                num_n_tiles, K_STEPS: gl.constexpr, NUM_WG: gl.constexpr, STAGES: gl.constexpr,
                GROUP_SIZE_M: gl.constexpr, NUM_SMS: gl.constexpr):
    """TMA loads of this program's ring step `load_step` (counted over all its tiles), if it has one."""
    if load_step < total_steps:
        slot = free_slot(empty, load_step, STAGES)
        tile_id = pid + (load_step // K_STEPS) * NUM_SMS
        k0 = (load_step % K_STEPS) * BK
        pid_m, pid_n = swizzle_tile(tile_id, num_m_tiles, num_n_tiles, GROUP_SIZE_M)
        mbarrier.expect(ready.index(slot), NUM_WG * a_desc.block_type.nbytes + b_desc.block_type.nbytes)
        for wg in gl.static_range(NUM_WG):
            tma.async_copy_global_to_shared(a_desc, [(pid_m * NUM_WG + wg) * WG_ROWS, k0], ready.index(slot),
                                            a_slots.index(slot * NUM_WG + wg))
        tma.async_copy_global_to_shared(b_desc, [pid_n * BN, k0], ready.index(slot), b_slots.index(slot))


@gluon.jit
def mma_partition(a_desc, b_desc, c_ptr, a_slots, b_slots, ready, empty, M, N, WG: gl.constexpr,
                  LOADS: gl.constexpr, K_STEPS: gl.constexpr, NUM_WG: gl.constexpr, STAGES: gl.constexpr,
                  GROUP_SIZE_M: gl.constexpr, NUM_SMS: gl.constexpr):
    """Rows WG·64 … WG·64+63 of every tile of this program; with LOADS also the ring's TMA loads."""
    pid = gl.program_id(0)
    num_m_tiles = gl.cdiv(M, NUM_WG * WG_ROWS)
    num_n_tiles = gl.cdiv(N, BN)
    my_tiles = gl.cdiv(num_m_tiles * num_n_tiles - pid, NUM_SMS)
    total_steps = my_tiles * K_STEPS
    if LOADS:
        for s in gl.static_range(STAGES - 1):
            issue_loads(a_desc, b_desc, a_slots, b_slots, ready, empty, s, total_steps, pid, num_m_tiles,
                        num_n_tiles, K_STEPS, NUM_WG, STAGES, GROUP_SIZE_M, NUM_SMS)
    acc_layout: gl.constexpr = accumulator_layout(WG_ROWS, BN, 4)
    step = 0
    for t in range(my_tiles):
        pid_m, pid_n = swizzle_tile(pid + t * NUM_SMS, num_m_tiles, num_n_tiles, GROUP_SIZE_M)
        acc = gl.zeros((WG_ROWS, BN), gl.float32, acc_layout)
        for k_step in range(K_STEPS):
            slot = filled_slot(ready, step, STAGES)
            a = a_slots.index(slot * NUM_WG + WG)
            b = b_slots.index(slot)
            acc = warpgroup_mma(a, b.permute((1, 0)), acc, is_async=True)
            acc, a, b = warpgroup_mma_wait(1, deps=[acc, a, b])
            release_previous_slot(empty, step, STAGES, k_step > 0)
            if LOADS:  # the slot just released (or, on a tile's first step, the one released after its wait)
                issue_loads(a_desc, b_desc, a_slots, b_slots, ready, empty, step + STAGES - 1, total_steps, pid,
                            num_m_tiles, num_n_tiles, K_STEPS, NUM_WG, STAGES, GROUP_SIZE_M, NUM_SMS)
            step += 1
        acc = warpgroup_mma_wait(0, deps=[acc])
        release_previous_slot(empty, step, STAGES, True)
        m0 = (pid_m * NUM_WG + WG) * WG_ROWS
        store_rows(acc, c_ptr, m0, M, 0, pid_n * BN, N, c_ptr, c_ptr, False, False, True)


@gluon.jit
def dense_kernel(a_desc, b_desc, c_ptr, M, N, K_STEPS: gl.constexpr, NUM_WG: gl.constexpr, STAGES: gl.constexpr,
                 GROUP_SIZE_M: gl.constexpr, NUM_SMS: gl.constexpr):
    a_slots = gl.allocate_shared_memory(a_desc.dtype, [STAGES * NUM_WG] + a_desc.block_type.shape, a_desc.layout)
    b_slots = gl.allocate_shared_memory(b_desc.dtype, [STAGES] + b_desc.block_type.shape, b_desc.layout)
    ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    empty = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    for slot in gl.static_range(STAGES):
        mbarrier.init(ready.index(slot), count=1)
        mbarrier.init(empty.index(slot), count=NUM_WG)
    if NUM_WG == 3:
        gl.warp_specialize([
            (mma_partition, (a_desc, b_desc, c_ptr, a_slots, b_slots, ready, empty, M, N, 0, True, K_STEPS, NUM_WG,
                             STAGES, GROUP_SIZE_M, NUM_SMS)),
            (mma_partition, (a_desc, b_desc, c_ptr, a_slots, b_slots, ready, empty, M, N, 1, False, K_STEPS, NUM_WG,
                             STAGES, GROUP_SIZE_M, NUM_SMS)),
            (mma_partition, (a_desc, b_desc, c_ptr, a_slots, b_slots, ready, empty, M, N, 2, False, K_STEPS, NUM_WG,
                             STAGES, GROUP_SIZE_M, NUM_SMS)),
        ], [4, 4], [168, 168])
    else:
        gl.warp_specialize([
            (mma_partition, (a_desc, b_desc, c_ptr, a_slots, b_slots, ready, empty, M, N, 0, True, K_STEPS, NUM_WG,
                             STAGES, GROUP_SIZE_M, NUM_SMS)),
            (mma_partition, (a_desc, b_desc, c_ptr, a_slots, b_slots, ready, empty, M, N, 1, False, K_STEPS, NUM_WG,
                             STAGES, GROUP_SIZE_M, NUM_SMS)),
        ], [4], [232])
    for slot in gl.static_range(STAGES):
        mbarrier.invalidate(ready.index(slot))
        mbarrier.invalidate(empty.index(slot))


def launch(a, b, c, num_wg: int, stages: int, group_size_m: int = 8, num_sms: int = 132, warmup: bool = False):
    """C = A · Bᵀ on the probe's kernel; a (M, K), b (N, K), c (M, N) bf16."""
    from gemmtune.kernels.hopper_ws import tma_descriptor

    M, K = a.shape
    N = b.shape[0]
    WG_ROWS, BN, BK = (v.value for v in (globals()["WG_ROWS"], globals()["BN"], globals()["BK"]))
    assert M % (num_wg * WG_ROWS) == 0 and N % BN == 0 and K % BK == 0, "the probe has no masks on its loads"
    a_desc = tma_descriptor(a, M, K, [WG_ROWS, BK])
    b_desc = tma_descriptor(b, N, K, [BN, BK])
    tiles = (M // (num_wg * WG_ROWS)) * (N // BN)
    grid = (min(num_sms, tiles),)
    meta = dict(K_STEPS=K // BK, NUM_WG=num_wg, STAGES=stages, GROUP_SIZE_M=group_size_m, NUM_SMS=grid[0],
                num_warps=4)
    if warmup:
        return dense_kernel.warmup(a_desc, b_desc, c, M, N, grid=grid, **meta)
    return dense_kernel[grid](a_desc, b_desc, c, M, N, **meta)


VARIANTS = {"192x256 3wg s3": (3, 3), "128x256 2wg s4": (2, 4), "128x256 2wg s3": (2, 3)}


def compile_only() -> int:
    import subprocess
    from pathlib import Path

    import torch

    from gemmtune.engine.compile import _install_compile_only_driver, resource_usage
    from sass_report import opcode_counts

    _install_compile_only_driver({"arch": 90, "warp_size": 32, "num_sms": 132})
    M, N, K = 9216, 28672, 4096
    a = torch.empty(M, K, dtype=torch.bfloat16, device="meta")
    b = torch.empty(N, K, dtype=torch.bfloat16, device="meta")
    c = torch.empty(M, N, dtype=torch.bfloat16, device="meta")
    tool = Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / "cuobjdump"
    for name, (num_wg, stages) in VARIANTS.items():
        compiled = launch(a, b, c, num_wg, stages, warmup=True)
        cubin = next(p for n, p in compiled.metadata_group.items() if n.endswith(".cubin"))
        regs, spills = resource_usage(cubin)
        sass = subprocess.run([str(tool), "-sass", cubin], capture_output=True, text=True).stdout
        ptx = Path(next(p for n, p in compiled.metadata_group.items() if n.endswith(".ptx"))).read_text()
        nreg = sorted(set(line.strip() for line in ptx.splitlines() if "setmaxnreg" in line or ".maxnreg" in line))
        print(f"{name}: regs={regs} spills={spills} smem={compiled.metadata.shared} {dict(opcode_counts(sass))} "
              f"{nreg}", flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compile-only", action="store_true")
    parser.add_argument("--M", type=int, default=9216)
    parser.add_argument("--N", type=int, default=28672)
    parser.add_argument("--K", type=int, default=4096)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--sustained", type=float)
    parser.add_argument("--config", action="append", default=[], help="another gemmtune config to time (call 4)")
    args = parser.parse_args()
    if args.compile_only:
        return compile_only()

    import dataclasses

    import torch

    from gemmtune.kernels import Launcher
    from gemmtune.problem import Problem, make_inputs
    from ncu_probe import device_header, time_interleaved
    from power_probe import Sampler, sustained
    from sass_report import parse_config

    M, N, K = args.M, args.N, args.K
    # The shipped forward kernel on one expert of M rows: the same dense GEMM, its own tile schedule.
    problem = Problem(mode="fwd", E=1, M=M, N=N, K=K, topk=1, routing="balanced")
    inputs = make_inputs(problem, "cuda")
    print(f"{device_header()}: dense C = A·Bᵀ, M={M} N={N} K={K} bf16", flush=True)
    a, b = inputs.x, inputs.w[0]
    ref = (a.float() @ b.float().T)
    fns = {"torch.mm": lambda: torch.mm(a, b.T)}
    for name, (num_wg, stages) in VARIANTS.items():
        c = torch.full((M, N), float("nan"), dtype=torch.bfloat16, device="cuda")
        launch(a, b, c, num_wg, stages)
        torch.cuda.synchronize()
        err = ((c.float() - ref).norm() / ref.norm()).item()
        print(f"{name}: relative error {err:.2e}", flush=True)
        fns[name] = (lambda c=c, num_wg=num_wg, stages=stages: launch(a, b, c, num_wg, stages))
    for text in ("BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=8,num_stages=4,use_tma_load_w=1,"
                 "use_tma_load_x=1,warp_specialize=1",
                 "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=8,num_stages=3,use_tma_load_w=1,"
                 "use_tma_load_x=1") + tuple(args.config):
        config = parse_config(problem, text)
        launcher = Launcher(problem, inputs, config)
        out = launcher()
        torch.cuda.synchronize()
        err = ((out.float() - ref).norm() / ref.norm()).item()
        print(f"{config.to_string()}: relative error {err:.2e}", flush=True)
        fns[f"shipped {config.to_string()}"] = launcher
    flops_problem = dataclasses.replace(problem)
    time_interleaved(flops_problem, list(fns.items()), args.rounds, ratios=True)
    if args.sustained:
        sampler = Sampler()
        sampler.start()
        for name, fn in list(fns.items()) + [("torch.mm (again)", fns["torch.mm"])]:
            ms, start, end, calls = sustained(fn, args.sustained, torch)
            mhz, watts, samples = sampler.window(start + 1.0, end)
            tflops = problem.flops / ms / 1e9
            print(f"sustained {name:40s} {ms:.4f} ms {tflops:7.1f} TF/s at {mhz:.0f} MHz {watts:.0f} W "
                  f"({tflops / mhz * 1e3:.0f} TF/s per GHz, {calls} calls, {samples} samples)", flush=True)
        sampler.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
