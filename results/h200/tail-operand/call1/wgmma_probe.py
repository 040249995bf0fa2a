"""EXPERIMENT: what a merged tail's wgmmas cost in the K loop alone, and whether W taken into registers once per
K step (wgmma's A operand) makes them cheaper.

A toy Gluon kernel, no loads in the loop: every program (one per SM) fills a ring of STAGES shared-memory slots
once (X 128 rows, W 256 rows, the tail's X rows; K block 64, random bf16), then runs STEPS K steps over the ring as
fwd_ws.k_loop does (async wgmma, this step in flight while the next is issued). Variants (VARIANT):
  0 plain      acc (TOKENS, WROWS) += X · Wᵀ
  1 plain+tail acc_tail (WROWS, TAIL) += W · Xtᵀ first (A = W from shared memory), then the plain group: the shipped
               k_loop with a tail
  2 swapped    accᵀ (WROWS, TOKENS) += W · Xᵀ (tokens on the wgmma's N)
  3 swapped+tail from shared memory: acc_tail, then accᵀ, both with A = W's slab from shared memory
  4 swapped, A in registers: W's slab loaded once per step (ldmatrix), then accᵀ += a · Xᵀ
  5 swapped+tail, A in registers: one load of W's slab feeds both wgmmas
  6 plain+tail, the tail's A in registers: the plain group as in 1, the tail's W slab loaded once per step
Reported: time per K step and per program, and the ratio to variant 0 of the same tile.
Usage: python3 wgmma_probe.py [--compile-only]
"""
import os
import sys

COMPILE_ONLY = "--compile-only" in sys.argv
if COMPILE_ONLY:
    os.environ["TRITON_INTERPRET"] = "0"
sys.path.insert(0, ".")
if COMPILE_ONLY:
    from gemmtune.engine.compile import _install_compile_only_driver
    _install_compile_only_driver({"arch": 90, "warp_size": 32, "num_sms": 132})

import torch
import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import fence_async_shared, warpgroup_mma, warpgroup_mma_wait

from gemmtune.kernels.hopper_ws import accumulator_layout

BK = 64


@gluon.jit
def fill(slots, ptr, ROWS: gl.constexpr, STAGES: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [gl.num_warps(), 1], [1, 0])
    rows = gl.arange(0, ROWS, layout=gl.SliceLayout(1, layout))
    cols = gl.arange(0, 64, layout=gl.SliceLayout(0, layout))
    for s in gl.static_range(STAGES):
        offs = (s * ROWS + gl.expand_dims(rows, 1)) * 64 + gl.expand_dims(cols, 0)
        slots.index(s).store(gl.load(ptr + offs))


@gluon.jit
def probe_kernel(x_ptr, w_ptr, t_ptr, out_ptr, steps, TOKENS: gl.constexpr, WROWS: gl.constexpr,
                 TAIL: gl.constexpr, STAGES: gl.constexpr, VARIANT: gl.constexpr):
    nw: gl.constexpr = gl.num_warps()
    sl: gl.constexpr = gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2)
    x_s = gl.allocate_shared_memory(gl.bfloat16, [STAGES, TOKENS, 64], sl)
    w_s = gl.allocate_shared_memory(gl.bfloat16, [STAGES, WROWS, 64], sl)
    t_s = gl.allocate_shared_memory(gl.bfloat16, [STAGES, TAIL, 64], sl)
    fill(x_s, x_ptr, TOKENS, STAGES)
    fill(w_s, w_ptr, WROWS, STAGES)
    fill(t_s, t_ptr, TAIL, STAGES)
    fence_async_shared()
    gl.thread_barrier()
    plain_layout: gl.constexpr = accumulator_layout(TOKENS, WROWS, nw)
    swapped_layout: gl.constexpr = accumulator_layout(WROWS, TOKENS, nw)
    tail_layout: gl.constexpr = accumulator_layout(WROWS, TAIL, nw)
    a_layout: gl.constexpr = gl.DotOperandLayout(operand_index=0, parent=swapped_layout, k_width=2)
    a_tail_layout: gl.constexpr = gl.DotOperandLayout(operand_index=0, parent=tail_layout, k_width=2)
    acc_tail = gl.zeros((WROWS, TAIL), gl.float32, tail_layout)
    if VARIANT < 2 or VARIANT == 6:
        acc = gl.zeros((TOKENS, WROWS), gl.float32, plain_layout)
    else:
        acc = gl.zeros((WROWS, TOKENS), gl.float32, swapped_layout)
    for step in range(steps):
        slot = step % STAGES
        x = x_s.index(slot)
        w = w_s.index(slot)
        t = t_s.index(slot)
        if VARIANT == 0:
            acc = warpgroup_mma(x, w.permute((1, 0)), acc, is_async=True)
            acc, x, w = warpgroup_mma_wait(1, deps=[acc, x, w])
        elif VARIANT == 1:
            acc_tail = warpgroup_mma(w, t.permute((1, 0)), acc_tail, is_async=True)
            acc = warpgroup_mma(x, w.permute((1, 0)), acc, is_async=True)
            acc, acc_tail, x, w, t = warpgroup_mma_wait(2, deps=[acc, acc_tail, x, w, t])
        elif VARIANT == 2:
            acc = warpgroup_mma(w, x.permute((1, 0)), acc, is_async=True)
            acc, x, w = warpgroup_mma_wait(1, deps=[acc, x, w])
        elif VARIANT == 3:
            acc_tail = warpgroup_mma(w, t.permute((1, 0)), acc_tail, is_async=True)
            acc = warpgroup_mma(w, x.permute((1, 0)), acc, is_async=True)
            acc, acc_tail, x, w, t = warpgroup_mma_wait(2, deps=[acc, acc_tail, x, w, t])
        elif VARIANT == 4:
            a = w.load(a_layout)
            acc = warpgroup_mma(a, x.permute((1, 0)), acc, is_async=True)
            acc, a, x = warpgroup_mma_wait(1, deps=[acc, a, x])
        elif VARIANT == 6:
            a_tail = w.load(a_tail_layout)
            acc_tail = warpgroup_mma(a_tail, t.permute((1, 0)), acc_tail, is_async=True)
            acc = warpgroup_mma(x, w.permute((1, 0)), acc, is_async=True)
            acc, acc_tail, a_tail, x, w, t = warpgroup_mma_wait(2, deps=[acc, acc_tail, a_tail, x, w, t])
        else:
            a = w.load(a_layout)
            a_tail = gl.convert_layout(a, a_tail_layout)
            acc_tail = warpgroup_mma(a_tail, t.permute((1, 0)), acc_tail, is_async=True)
            acc = warpgroup_mma(a, x.permute((1, 0)), acc, is_async=True)
            acc, acc_tail, a, a_tail, x, t = warpgroup_mma_wait(2, deps=[acc, acc_tail, a, a_tail, x, t])
    acc, acc_tail = warpgroup_mma_wait(0, deps=[acc, acc_tail])
    # Keep the sums live: one value per program.
    total = gl.sum(gl.sum(acc, 1), 0) + gl.sum(gl.sum(acc_tail, 1), 0)
    gl.store(out_ptr + gl.program_id(0), total)


VARIANTS = ["plain", "plain+tail", "swapped", "swapped+tail", "swapped, A regs", "swapped+tail, A regs",
            "plain+tail, tail's A regs"]


def run(tokens, wrows, tail, stages, variant, steps, device, programs):
    x = torch.randn(stages * tokens * 64, device=device).to(torch.bfloat16)
    w = torch.randn(stages * wrows * 64, device=device).to(torch.bfloat16)
    t = torch.randn(stages * tail * 64, device=device).to(torch.bfloat16)
    out = torch.empty(programs, device=device, dtype=torch.float32)
    args = (x, w, t, out, steps)
    meta = dict(TOKENS=tokens, WROWS=wrows, TAIL=tail, STAGES=stages, VARIANT=variant, num_warps=8)
    if COMPILE_ONLY:
        k = probe_kernel.warmup(*args, grid=(programs,), **meta)
        return k
    fn = lambda: probe_kernel[(programs,)](*args, **meta)
    fn()
    torch.cuda.synchronize()
    return triton.testing.do_bench(fn, warmup=25, rep=100)


def sass_summary(compiled):
    """Registers, spills, shared memory and the K loop's HGMMA shapes of a compiled variant (sm_90 SASS)."""
    import collections, re, subprocess
    from pathlib import Path
    from gemmtune.engine.compile import resource_usage
    cubin = next(p for name, p in compiled.metadata_group.items() if name.endswith(".cubin"))
    tool = Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / "cuobjdump"
    sass = subprocess.run([str(tool), "-sass", cubin], capture_output=True, text=True, check=True).stdout
    regs, spills = resource_usage(cubin)
    shapes = collections.Counter(re.findall(r"HGMMA\.(\w+)", sass))
    ldsm = len(re.findall(r"\bLDSM", sass))
    return f"regs {regs} spills {spills} smem {compiled.metadata.shared} LDSM {ldsm} HGMMA {dict(shapes)}"


def main():
    device = "meta" if COMPILE_ONLY else "cuda"
    if not COMPILE_ONLY:
        print(torch.cuda.get_device_name(), torch.__version__, triton.__version__, flush=True)
    programs = 132
    steps = 448 * 4
    for tokens, wrows, tail in ((128, 256, 16), (128, 256, 32), (256, 128, 32)):
        base = None
        for variant in range(7):
            try:
                r = run(tokens, wrows, tail, 3, variant, steps, device, programs)
            except Exception as e:  # a variant that does not build is reported, not fatal
                print(f"tile {tokens}x{wrows} tail {tail} {VARIANTS[variant]:22s} FAILED {type(e).__name__}: "
                      f"{str(e).splitlines()[-1][:150] if str(e) else ''}", flush=True)
                continue
            if COMPILE_ONLY:
                print(f"tile {tokens}x{wrows} tail {tail} {VARIANTS[variant]:22s} {sass_summary(r)}", flush=True)
                continue
            base = base or r
            print(f"tile {tokens}x{wrows} tail {tail} {VARIANTS[variant]:22s} {r * 1e6 / steps:8.1f} ns/step "
                  f"{r:7.3f} ms  {r / base:6.3f}x plain", flush=True)


if __name__ == "__main__":
    main()
