"""Where kernels run: on the CUDA GPU, or on Triton's CPU interpreter when there is none.

Triton reads TRITON_INTERPRET when each `@triton.jit` is applied, its own standard library included
(`tl.cdiv`, `tl.cumsum`, … are jit functions made when `triton.language` is first imported). So the choice
is made here, when gemmtune is imported, before anything imports triton: with no CUDA GPU visible,
TRITON_INTERPRET=1 is set, since the interpreter is then the only way to run the kernels at all.
TRITON_INTERPRET=0 set explicitly keeps the compiler without a GPU, for compile-only use
(benchmarks/sass_report.py); launches then fail.
"""

from __future__ import annotations

import os
import sys


def _interpreter_requested() -> bool:
    return os.environ.get("TRITON_INTERPRET", "0") not in ("", "0")


def _configure() -> str:
    import torch

    if not _interpreter_requested() and (torch.cuda.is_available() or os.environ.get("TRITON_INTERPRET") == "0"):
        return "cuda"
    if "triton.language" in sys.modules and not _interpreter_requested():
        # Too late to switch triton's own jit functions to the interpreter; kernels would fail on launch.
        raise RuntimeError("no CUDA GPU: set TRITON_INTERPRET=1 before importing triton, or import gemmtune first")
    os.environ["TRITON_INTERPRET"] = "1"
    return "interpreter"


BACKEND = _configure()


def select_backend() -> str:
    """'cuda' when kernels run on the GPU, 'interpreter' when they run on Triton's CPU interpreter."""
    return BACKEND
