"""Probe (docs/perf-notes.md, entry 64): does a wgmma whose N is not a power of two cost its own columns' time?

cuBLAS fits its tiles' token side to each expert's rows (256x136/144/152 on mixtral and llama4-scout); gemmtune's
tiles round the token side up to 64 (the wgmma's M) or, for the merged tail, to a power of two, because Triton and
Gluon tensors have power-of-two shapes. Computed transposed (Y^T = W^T X^T, entry 50), the token side is the
wgmma's N, which PTX allows at any multiple of 8 up to 256. Before building fitted tiles into the grouped kernel,
this probe measures whether such an instruction runs in the time of its own columns or of the 256 it is padded to.

One dense tile kernel (plain Triton, tl.dot): 128 rows of W^T by BLOCK_T token columns per program, K-major
operands loaded through masked pointers (a program's token columns past n_fit are neither read nor stored). Its
PTX is rewritten before ptxas (ptx_fit.wrap_ptx_stage): every
`wgmma...m64n{BLOCK_T}k16` becomes `m64n{n}k16` over the first n/2 accumulator registers. Each variant is checked
against torch.mm on its own tokens, then all are timed in interleaved rounds (gemmtune.engine.retime.retime_do_bench,
the sweep's re-time) and reported in TF/s of the work they were asked for (2 * N_OUT * tokens * K).

With --chain, --copies or --groups one kernel takes the width at run time (ptx_fit's passes of those names).

    python results/h200/fitted-n/fitted_n.py --n 256 240 136 --native 128 --rounds 6
    python results/h200/fitted-n/fitted_n.py --compile-only --n 240   # on the CPU machine: the rewritten SASS

GPU (sm_90) for timing; --compile-only needs no GPU.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from pathlib import Path

os.environ["TRITON_INTERPRET"] = "0"
# A fresh cache: the rewrite is not part of Triton's cache key.
os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="fitted-n-")

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from ptx_fit import (  # noqa: E402
    CHAIN_WIDTHS,
    branch_wgmma_groups,
    chain_wgmma,
    copy_wgmma,
    narrow_wgmma,
    wrap_ptx_stage,
)

BLOCK_W, BLOCK_K = 128, 64
COPY_WIDTHS = (256, 240, 224, 128)  # the K-loop copies of tile_kernel (FIT_N -2)
FIT = {"n": None}  # the next compile's rewrite: an n to narrow to, "chain", "copies", or None for none


def rewrite(ptx: str) -> str:
    """The PTX pass FIT asks for (ptx_fit), with a line saying what it rewrote."""
    if FIT["n"] is None:
        return ptx
    if FIT["n"] == "groups":
        ptx, count = branch_wgmma_groups(ptx, CHAIN_WIDTHS)
        print(f"    branched {count} wgmma groups over widths {CHAIN_WIDTHS}", flush=True)
    elif FIT["n"] == "copies":
        ptx, counts = copy_wgmma(ptx)
        print(f"    rewrote wgmmas per K-loop copy: {counts}", flush=True)
    elif FIT["n"] == "chain":
        ptx, count = chain_wgmma(ptx)
        print(f"    rewrote {count} wgmma to a chain of m64n{CHAIN_WIDTHS}k16", flush=True)
    else:
        ptx, count = narrow_wgmma(ptx, FIT["n"])
        print(f"    rewrote {count} wgmma to m64n{FIT['n']}k16", flush=True)
    return ptx


wrap_ptx_stage(rewrite)


@triton.jit
def k_loop(wt_ptr, x_ptr, offs_w, offs_t, t_mask, K, acc, BLOCK_K: tl.constexpr, MARK: tl.constexpr):
    """acc += Wt[offs_w, :] X[offs_t, :]^T over K; with a MARK (a PTX comment), the loop is a width's copy."""
    if MARK != "":
        tl.inline_asm_elementwise(MARK, "=r,r", [K], dtype=tl.int32, is_pure=False, pack=1)
    offs_k = tl.arange(0, BLOCK_K)
    for k in range(0, K, BLOCK_K):
        a = tl.load(wt_ptr + offs_w[:, None] * K + (k + offs_k)[None, :])
        b = tl.load(x_ptr + offs_t[:, None] * K + (k + offs_k)[None, :], mask=t_mask[:, None], other=0.0)
        acc = tl.dot(a, tl.trans(b), acc)
    return acc


@triton.jit
def tile_kernel(wt_ptr, x_ptr, y_ptr, N_OUT, K, n_fit, num_t_tiles, FIT_N: tl.constexpr,
                BLOCK_W: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_W: tl.constexpr):
    """Y[t, w] = sum_k X[t, k] * Wt[w, k] for one 128 x BLOCK_T tile, computed as Y^T = Wt X^T.

    wt: [N_OUT, K] bf16, x: [tokens, K] bf16, y: [tokens, N_OUT] bf16; a program's tokens start at
    pid_t * n_fit and its columns past n_fit are masked off. FIT_N keys the compile: the rewrite's n, -1 for the
    chain of widths per wgmma and -3 per K step's group (the runtime width n_fit passed to the PTX through a marked
    mov), -2 for the K-loop copies."""
    if FIT_N == -1 or FIT_N == -3:  # the runtime width, in a register chain_wgmma and branch_wgmma_groups find
        tl.inline_asm_elementwise("mov.b32 $0, $1; // fitted-n: runtime width", "=r,r", [n_fit], dtype=tl.int32,
                                  is_pure=False, pack=1)
    pid = tl.program_id(0)
    num_w = N_OUT // BLOCK_W
    group = pid // (GROUP_W * num_t_tiles)
    first_w = group * GROUP_W
    in_group = pid % (GROUP_W * num_t_tiles)
    pid_w = first_w + in_group % tl.minimum(num_w - first_w, GROUP_W)
    pid_t = in_group // tl.minimum(num_w - first_w, GROUP_W)
    offs_w = pid_w * BLOCK_W + tl.arange(0, BLOCK_W)
    cols = tl.arange(0, BLOCK_T)
    offs_t = pid_t * n_fit + cols
    t_mask = cols < n_fit
    acc = tl.zeros((BLOCK_W, BLOCK_T), dtype=tl.float32)
    if FIT_N == -2:  # one K loop per width of COPY_WIDTHS, the tile's chosen at run time
        if n_fit == 256:
            acc = k_loop(wt_ptr, x_ptr, offs_w, offs_t, t_mask, K, acc, BLOCK_K,
                         "mov.b32 $0, $1; // fitted-n: width 256")
        elif n_fit == 240:
            acc = k_loop(wt_ptr, x_ptr, offs_w, offs_t, t_mask, K, acc, BLOCK_K,
                         "mov.b32 $0, $1; // fitted-n: width 240")
        elif n_fit == 224:
            acc = k_loop(wt_ptr, x_ptr, offs_w, offs_t, t_mask, K, acc, BLOCK_K,
                         "mov.b32 $0, $1; // fitted-n: width 224")
        else:
            acc = k_loop(wt_ptr, x_ptr, offs_w, offs_t, t_mask, K, acc, BLOCK_K,
                         "mov.b32 $0, $1; // fitted-n: width 128")
    else:
        acc = k_loop(wt_ptr, x_ptr, offs_w, offs_t, t_mask, K, acc, BLOCK_K, "")
    y = y_ptr + offs_t[None, :] * N_OUT + offs_w[:, None]
    tl.store(y, acc.to(tl.bfloat16), mask=t_mask[None, :])


class Variant:
    """One tile width: BLOCK_T token columns compiled, n of them computed (n < BLOCK_T: the PTX rewritten)."""

    def __init__(self, n: int, block_t: int, rewrite: str, n_out: int, k: int, t_tiles: int, device: str):
        """rewrite: 'native' (none), 'narrowed' (to n at compile time), 'chain' (n chosen at run time per wgmma),
        'groups' (per K step's group of wgmmas) or 'copies' (per tile, between K loops compiled per width)."""
        self.n, self.block_t, self.t_tiles = n, block_t, t_tiles
        self.fit_key = {"native": 0, "narrowed": n, "chain": -1, "copies": -2, "groups": -3}[rewrite]
        self.name = f"n={n} (tile {block_t}, {rewrite})"
        self.tokens = n * t_tiles
        self.n_out, self.k = n_out, k
        gen = torch.Generator(device="cpu").manual_seed(n)
        self.x = torch.randn(self.tokens, k, generator=gen).to(device, torch.bfloat16)
        self.wt = (torch.randn(n_out, k, generator=gen) / k**0.5).to(device, torch.bfloat16)
        self.y = torch.empty(self.tokens, n_out, device=device, dtype=torch.bfloat16)
        self.grid = (n_out // BLOCK_W * t_tiles,)
        self.flops = 2 * n_out * self.tokens * k

    def compile(self):
        FIT["n"] = {0: None, -1: "chain", -2: "copies", -3: "groups"}.get(self.fit_key, self.fit_key)
        try:
            return tile_kernel.warmup(self.wt, self.x, self.y, self.n_out, self.k, self.n, self.t_tiles,
                                      FIT_N=self.fit_key, BLOCK_W=BLOCK_W, BLOCK_T=self.block_t,
                                      BLOCK_K=BLOCK_K, GROUP_W=8, num_warps=8, num_stages=4, grid=self.grid)
        finally:
            FIT["n"] = None

    def __call__(self):
        tile_kernel[self.grid](self.wt, self.x, self.y, self.n_out, self.k, self.n, self.t_tiles,
                               FIT_N=self.fit_key, BLOCK_W=BLOCK_W, BLOCK_T=self.block_t, BLOCK_K=BLOCK_K,
                               GROUP_W=8, num_warps=8, num_stages=4)
        return self.y


def variants(args, device: str) -> list[Variant]:
    """The narrowed widths (args.n, from a 256-column tile), the runtime widths of the chain, copies and groups
    kernels (one kernel each for all its widths), then the native power-of-two tiles (args.native)."""
    shape = (args.n_out, args.k, args.t_tiles, device)
    return ([Variant(n, 256, "narrowed", *shape) for n in args.n]
            + [Variant(n, 256, "chain", *shape) for n in args.chain]
            + [Variant(n, 256, "copies", *shape) for n in args.copies]
            + [Variant(n, 256, "groups", *shape) for n in args.groups]
            + [Variant(n, n, "native", *shape) for n in args.native])


def sass_of(compiled) -> tuple[str, Path]:
    """The SASS of a compiled kernel (sass_report.cubin_sass) and its cubin's path."""
    from sass_report import cubin_sass

    cubin = Path(tempfile.mkdtemp()) / "k.cubin"
    cubin.write_bytes(compiled.asm["cubin"])
    return cubin_sass(cubin), cubin


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="*", default=[256, 240, 136], help="widths compiled from a 256 tile")
    parser.add_argument("--chain", type=int, nargs="*", default=[], help=f"runtime widths of {CHAIN_WIDTHS}")
    parser.add_argument("--copies", type=int, nargs="*", default=[], help=f"runtime widths of {COPY_WIDTHS}")
    parser.add_argument("--groups", type=int, nargs="*", default=[], help=f"runtime widths of {CHAIN_WIDTHS}, "
                        "chosen once per K step's group of wgmmas")
    parser.add_argument("--native", type=int, nargs="*", default=[128], help="power-of-two tiles, not rewritten")
    parser.add_argument("--n-out", type=int, default=16384)
    parser.add_argument("--k", type=int, default=5120)
    parser.add_argument("--t-tiles", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--compile-only", action="store_true")
    args = parser.parse_args(argv)

    if args.compile_only:
        root = Path(__file__).resolve().parents[3]
        sys.path[:0] = [str(root), str(root / "benchmarks")]
        from gemmtune.engine.compile import _install_compile_only_driver, resource_usage

        _install_compile_only_driver({"arch": 90, "warp_size": 32, "num_sms": 132})
        for v in variants(args, "meta"):
            compiled = v.compile()
            sass, cubin = sass_of(compiled)
            shapes = sorted(set(re.findall(r"HGMMA\.(\d+x\d+x\d+)", sass)))
            regs, spills = resource_usage(cubin)
            print(f"{v.name}: HGMMA {shapes} x{len(re.findall(r'HGMMA', sass))}, regs {regs}, spills {spills}, "
                  f"smem {compiled.metadata.shared}, WARPGROUP.DEPBAR x{sass.count('WARPGROUP.DEPBAR')}")
        return 0

    from gemmtune.engine.retime import retime_do_bench

    found = variants(args, "cuda")
    print(torch.cuda.get_device_name(), torch.__version__, triton.__version__, flush=True)
    for v in found:
        v.compile()
        out = v()
        ref = (v.x.float() @ v.wt.float().T).to(torch.bfloat16)
        err = ((out.float() - ref.float()).norm() / ref.float().norm()).item()
        print(f"  {v.name}: tokens {v.tokens}, rel err {err:.2e} {'ok' if err < 1e-2 else 'WRONG'}", flush=True)
    # torch.mm on the first variant's operands: the cuBLAS figure for the same product, as a scale.
    first = found[0]
    timed = [(v.name, v, v.flops, v.n) for v in found]
    timed.append((f"torch.mm on {first.name}'s operands", lambda: first.x @ first.wt.T, first.flops, first.n))
    timings = retime_do_bench([launch for _, launch, _, _ in timed], args.rounds)
    print(f"N_OUT {args.n_out}, K {args.k}, {args.t_tiles} token tiles per column block; TF/s of each one's own work")
    for (name, _, flops, n), t in zip(timed, timings):
        if "error" in t:
            print(f"{name:48s} error {t['error']}")
            continue
        ms = t["median_ms"]
        print(f"{name:48s} {ms:.4f} ms {flops / ms / 1e9:7.1f} TF/s  per token column {ms / n * 1e3:.3f} us "
              f"(p20-p80 {t['p20_ms']:.4f}-{t['p80_ms']:.4f}, {t['samples']} samples)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
