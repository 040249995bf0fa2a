"""Probe (docs/perf-notes.md, entry 64): the Gluon forward kernel's tiles computed transposed (swap_ab) and fitted to
their rows (fit_rows), against the suite's config of the shape.

With swap_ab (entry 50, rebuilt by both patches) a 256-row tile is Y^T = W X^T, its rows on the wgmma's N side.
With fit_rows a tile's wgmmas run at the narrowest of 256, 240, 224, 192, 160 and 128 columns that holds its rows:
- fitted_rows.patch (call 3): a tile without a merged tail runs the copy of its K loop for that width, each copy
  opened by a marker the PTX pass (ptx_fit.copy_wgmma) narrows below; a tile with a merged tail keeps 256;
- fitted_rows_branch.patch (call 4): every tile passes its width to the PTX through a marked redux.sync, and the
  pass (ptx_fit.branch_wgmma_groups) copies each K step's group of wgmmas once per width behind a branch on it.
Each config is checked against the reference, then all are timed with the torch baselines in interleaved rounds
(benchmarks/probe.py). --compile-only builds each config for sm_90 on this machine
and prints what the pass narrowed, the compiler's report and ptxas's notes on its wgmmas (--no-pass: without the
pass).

Needs one of the patches applied first (`git apply`, on 4aa9fa3's package).

    PYTHONPATH=benchmarks python results/h200/fitted-n/grouped_probe.py \\
        --shape fwd:llama4-scout:gate_up:4096:BLOCK_SIZE_M=256,...,warp_specialize=1 --rounds 6
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import tempfile
from pathlib import Path

os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="fitted-rows-")  # the pass is not in Triton's cache key
sys.path.insert(0, str(Path(__file__).parent))
sys.path.append(str(Path(__file__).resolve().parents[3] / "benchmarks"))

from ptx_fit import MARKED, branch_wgmma_groups, copy_wgmma, wrap_ptx_stage  # noqa: E402

FIT_WIDTHS = (256, 240, 224, 192, 160, 128)


def rewrite(ptx: str) -> str:
    """The fitted-n pass of whichever patch is applied, with a line saying what it did: branch_wgmma_groups on the
    runtime width where the kernel marks one (fitted_rows_branch.patch), else copy_wgmma on the K-loop copies'
    markers (fitted_rows.patch); nothing for a kernel with neither."""
    if MARKED.search(ptx):
        ptx, groups = branch_wgmma_groups(ptx, FIT_WIDTHS)
        print(f"    branched {groups} wgmma groups over widths {FIT_WIDTHS}", flush=True)
        return ptx
    ptx, counts = copy_wgmma(ptx)
    if counts:
        print(f"    narrowed wgmmas per K-loop copy: {dict(sorted(counts.items()))}", flush=True)
    return ptx


def padded_rows(m_sizes: list[int], block: int, tail_rows: int, widths: tuple[int, ...] | None) -> int:
    """Rows of MMA work a forward launch computes for experts of m_sizes: BLOCK_SIZE_M per block, the merged tail's
    TAIL_ROWS where one is merged (gemmtune.kernels.hopper_ws.m_blocks), and with `widths` a tail-less last block
    at the narrowest width that holds its rows (fitted_rows.patch's fitted_k_loop)."""
    total = 0
    for rows in m_sizes:
        tail = rows % block if tail_rows and rows > block and 0 < rows % block <= tail_rows else 0
        blocks, last = divmod(rows - tail, block)
        total += blocks * block + (tail_rows if tail else 0)
        if last:
            total += min(w for w in widths if w >= last) if widths and not tail else block
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", action="append", required=True,
                        help="mode:model:gemm:tokens:config (probe.shape) of a 256-row config, optionally followed by "
                             "'|' and the suite's config of the shape, timed beside it")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--compile-only", action="store_true")
    parser.add_argument("--no-pass", action="store_true", help="compile without the PTX pass (every copy at 256)")
    args = parser.parse_args(argv)
    wrap_ptx_stage((lambda ptx: ptx) if args.no_pass else rewrite)

    if args.compile_only:
        os.environ["TRITON_INTERPRET"] = "0"
        import gemmtune  # noqa: F401  (first: settles the backend before the kernels load)
        from gemmtune.engine.compile import _install_compile_only_driver, resource_usage
        from ncu_probe import model_problem
        from sass_report import build, cubin_sass, opcode_counts, parse_config, ptxas_notes, wgmma_waits

        _install_compile_only_driver({"arch": 90, "warp_size": 32, "num_sms": 132})
        for spec in args.shape:
            mode, model, gemm, tokens, text = spec.split("|")[0].split(":", 4)
            problem = model_problem(model, gemm, int(tokens), mode)
            for extra in ("", ",swap_ab=1", ",swap_ab=1,fit_rows=1"):
                config = parse_config(problem, text + extra)
                compiled, cubin = build(problem, config)
                regs, spills = resource_usage(cubin)
                sass = cubin_sass(cubin)
                shapes = sorted(set(line.split("HGMMA.")[1].split(".")[0] for line in sass.splitlines()
                                    if "HGMMA." in line))
                # A full wait after every HGMMA is ptxas serializing the wgmmas (sass_report.wgmma_waits).
                print(f"{config.to_string()}: regs {regs} spills {spills} smem {compiled.metadata.shared} "
                      f"{opcode_counts(sass)['HGMMA']} HGMMA {shapes}, "
                      f"{wgmma_waits(sass)} waits for all wgmmas", flush=True)
                for line in ptxas_notes(compiled.asm["ptx"]):
                    print(f"    ptxas: {line}", flush=True)
        return 0

    import probe
    import torch
    from sass_report import parse_config

    from gemmtune.kernels import Launcher

    print(probe.header(), flush=True)
    for spec in args.shape:
        base, _, suite = spec.partition("|")
        problem, inputs, config = probe.shape(base)
        sizes = inputs.m_sizes.tolist()
        block, tail_rows = config.BLOCK_SIZE_M, config.TAIL_ROWS
        routed = sum(sizes)
        plain, fitted = padded_rows(sizes, block, tail_rows, None), padded_rows(sizes, block, tail_rows, FIT_WIDTHS)
        print(f"m_sizes {sizes}: rows of MMA work {plain} ({plain / routed - 1:+.1%} over the {routed} routed), "
              f"fitted {fitted} ({fitted / routed - 1:+.1%})", flush=True)
        variants = []
        if suite:
            suite_config = parse_config(problem, suite)
            launcher = Launcher(problem, inputs, suite_config)
            variants.append((f"suite {suite_config.to_string()}", launcher, launcher.out))
        for extra in ({}, {"swap_ab": True}, {"swap_ab": True, "fit_rows": True}):
            cfg = dataclasses.replace(config, **extra)
            launcher = Launcher(problem, inputs, cfg)
            variants.append((cfg.to_string(), launcher, launcher.out))
        probe.compare(problem, inputs, variants, args.rounds)
        del variants, inputs
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
