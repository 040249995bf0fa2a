"""Triton grouped-GEMM kernels, one module per mode, and one entry point that launches any of them.

Import this package only after TRITON_INTERPRET is settled: `@triton.jit` reads it when applied.
"""

from __future__ import annotations

from typing import Callable

import torch

from gemmtune.config import KernelConfig
from gemmtune.problem import Inputs, Problem


def output_shape(problem: Problem) -> tuple[int, ...]:
    """fwd: Y (M·topk, N); dx: dX (M·topk, K); dw: dW (E, N, K)."""
    return {
        "fwd": (problem.rows, problem.N),
        "dx": (problem.rows, problem.K),
        "dw": (problem.E, problem.N, problem.K),
    }[problem.mode]


class Launcher:
    """A zero-argument callable that launches one config's kernel on fixed inputs into a fixed output.

    Setup (validation, output allocation) happens once here; each call only launches. After the first
    call, `compiled` holds Triton's compiled kernel (None on the interpreter) for its resource report.
    """

    def __init__(self, problem: Problem, inputs: Inputs, config: KernelConfig):
        self.out = torch.empty(output_shape(problem), dtype=problem.torch_dtype, device=inputs.m_sizes.device)
        self.compiled = None
        self._launch = _launch_fn(problem, inputs, config, self.out)

    def __call__(self) -> torch.Tensor:
        out, self.compiled = self._launch(warmup=False)
        return out

    def compile(self, load: bool = True):
        """Compile without launching (inputs may live on the 'meta' device); returns Triton's compiled kernel.

        load=True also loads the module onto the current GPU, which fills in n_regs and n_spills and needs
        a CUDA context; load=False only builds it (into Triton's cache).
        """
        _, self.compiled = self._launch(warmup=True)
        if load and self.compiled is not None and not hasattr(self.compiled, "n_regs"):
            self.compiled._init_handles()
        return self.compiled


def _launch_fn(problem: Problem, inputs: Inputs, config: KernelConfig, out: torch.Tensor) -> Callable:
    gi, ms, topk = inputs.gather_indices, inputs.m_sizes, problem.topk
    if problem.mode == "fwd":
        from gemmtune.kernels.fwd import grouped_gemm_forward

        return lambda warmup: grouped_gemm_forward(
            inputs.x, inputs.w, ms, gi, config, topk, inputs.topk_weights, out=out, warmup=warmup
        )
    if problem.mode == "dx":
        from gemmtune.kernels.dx import grouped_gemm_dX

        return lambda warmup: grouped_gemm_dX(inputs.dy, inputs.w, ms, gi, config, topk, out=out, warmup=warmup)
    if problem.mode == "dw":
        from gemmtune.kernels.dw import grouped_gemm_dW

        return lambda warmup: grouped_gemm_dW(inputs.x, inputs.dy, ms, gi, config, topk, out=out, warmup=warmup)
    raise ValueError(f"unknown mode {problem.mode!r}")
