"""Probe (docs/perf-notes.md, entry 67): which cuBLAS kernel the torch loop runs for each expert of a shape, and for how
long. One call of gemmtune.reference's torch_loop under torch.profiler, after two warm-up calls; prints every GPU
kernel of the call in launch order with its time, the GEMM kernels beside their expert's m_size (the loop's
torch.mm calls run in expert order, empty experts skipped). The kernel names carry cuBLAS's tile shapes. GPU only.

    PYTHONPATH=benchmarks python results/h200/ragged-cost/loop_kernels.py --shape fwd:llama4-scout:gate_up:4096 \\
        [--routing uniform]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.append(str(ROOT / "benchmarks"))

import gemmtune  # noqa: E402,F401  (first: settles the backend before Triton loads)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", required=True, help="mode:model:gemm:tokens")
    parser.add_argument("--routing", default="uniform", help="gemmtune.routing's spec")
    args = parser.parse_args(argv)

    import probe
    import torch
    from power_probe import cuda_kernels

    from gemmtune.reference import baselines

    problem, inputs, _ = probe.shape(f"{args.shape}:", args.routing)  # no config: only the loop runs
    loop = baselines(problem, inputs)["torch_loop"]
    for _ in range(2):
        loop()
    torch.cuda.synchronize()
    kernels = cuda_kernels(loop, torch)
    sizes = iter([s for s in inputs.m_sizes.tolist() if s > 0])
    print(probe.header(), problem.describe(), flush=True)
    for name, us in kernels:
        gemm = any(word in name.lower() for word in ("gemm", "nvjet", "cutlass", "xmma"))
        size = f"m_size {next(sizes, '?'):>6}" if gemm else " " * 13
        print(f"{size} {us:9.1f} us  {name[:150]}", flush=True)
    print(f"{len(kernels)} kernels, {sum(us for _, us in kernels):.1f} us in all", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
