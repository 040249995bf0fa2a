"""Running one config: failure-tolerant context, correctness check against the reference, timing.

Every failure a config can cause becomes a status and a message, never an exception that stops a sweep:
- out_of_resources: Triton's OutOfResources at launch (shared memory, registers), with required and limit.
- compile_error: Triton compilation failed (including tl.static_assert and unsupported constructs).
- runtime_error: anything else raised while launching or checking (a CUDA error, a refused argument).
- wrong: it ran, but its output differs from the fp32 reference by more than the dtype's tolerance or
  holds NaN/inf.
KeyboardInterrupt and SystemExit are never swallowed.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable

import torch

from gemmtune.config import KernelConfig
from gemmtune.reference import TOLERANCE, relative_error

STATUSES = ("ok", "wrong", "out_of_resources", "compile_error", "runtime_error", "crashed", "timeout", "pruned")
FAILED = ("out_of_resources", "compile_error", "runtime_error", "crashed", "timeout")


def classify(exc: BaseException) -> tuple[str, str]:
    """(status, one-line message) for an exception raised by a config."""
    from triton.compiler.errors import CompilationError
    from triton.runtime.errors import OutOfResources

    if isinstance(exc, OutOfResources):
        return "out_of_resources", f"{exc.name}: required {exc.required:,}, limit {exc.limit:,}"
    if isinstance(exc, CompilationError):
        return "compile_error", _one_line(exc)
    return "runtime_error", f"{type(exc).__name__}: {_one_line(exc)}"


def _one_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    # Triton's compile errors end with the error itself after the source excerpt.
    return (lines[-1] if lines else type(exc).__name__)[:500]


class TritonTuningContext:
    """Context manager that turns a config's failure into (status, error) and lets the sweep go on.

    with TritonTuningContext(config) as ctx:
        ...compile, launch, check...
    ctx.status  # 'ok' unless an Exception escaped the block (then one of FAILED)
    ctx.error   # '' or the one-line message

    Only Exception subclasses are caught: KeyboardInterrupt propagates.
    """

    def __init__(self, config: KernelConfig):
        self.config = config
        self.status = "ok"
        self.error = ""

    def __enter__(self) -> "TritonTuningContext":
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc is None or not isinstance(exc, Exception):
            return False
        self.status, self.error = classify(exc)
        return True


@dataclass(frozen=True)
class Timing:
    """Median and 20th/80th percentiles of one callable's run time, in milliseconds."""

    median_ms: float
    p20_ms: float
    p80_ms: float

    @property
    def spread(self) -> float:
        """(p80 − p20) / median: the relative spread of the samples."""
        return (self.p80_ms - self.p20_ms) / self.median_ms if self.median_ms else math.nan


TIMING_METHODS = {
    "do_bench": "triton.testing.do_bench median (p20/p80), L2 flushed before each run, warmup 25 ms, rep 100 ms",
    "interpreter": "wall clock of one call on the Triton CPU interpreter after one warm-up call (not GPU speed)",
    "cudagraph": "triton.testing.do_bench_cudagraph median (p20/p80) of 10 replays of a CUDA graph of back-to-back "
    "launches, rep 100 ms (no launch overhead, L2 not flushed: for small, launch-bound problems)",
}


def time_callable(fn: Callable[[], object], method: str = "do_bench", warmup_ms: int = 25, rep_ms: int = 100) -> Timing:
    """Time `fn` by `method` (see TIMING_METHODS); warmup_ms and rep_ms are do_bench's budgets in milliseconds."""
    if method == "interpreter":
        fn()
        start = time.perf_counter()
        fn()
        ms = (time.perf_counter() - start) * 1e3
        return Timing(ms, ms, ms)
    import triton.testing

    if method == "cudagraph":
        median, p20, p80 = triton.testing.do_bench_cudagraph(fn, rep=rep_ms, quantiles=[0.5, 0.2, 0.8])
        return Timing(median, p20, p80)
    median, p20, p80 = triton.testing.do_bench(fn, warmup=warmup_ms, rep=rep_ms, quantiles=[0.5, 0.2, 0.8])
    return Timing(median, p20, p80)


def time_samples(fn: Callable[[], object], method: str = "do_bench", warmup_ms: int = 25, rep_ms: int = 100) -> list[float]:
    """Every sample of one timing of `fn`, in milliseconds: do_bench's per-launch times (L2 flushed before each),
    do_bench_cudagraph's 10 per-replay means, or one interpreter wall-clock time."""
    if method == "interpreter":
        return [time_callable(fn, method).median_ms]
    import triton.testing

    if method == "cudagraph":
        return list(triton.testing.do_bench_cudagraph(fn, rep=rep_ms, return_mode="all"))
    return list(triton.testing.do_bench(fn, warmup=warmup_ms, rep=rep_ms, return_mode="all"))


@dataclass
class Checked:
    """Outcome of running a config once against the reference."""

    status: str
    error: str
    rel_err: float


def check_output(launch: Callable[[], torch.Tensor], out: torch.Tensor, ref: torch.Tensor, dtype: str) -> Checked:
    """Poison `out` with NaN, launch once, and compare with `ref` by relative Frobenius error.

    NaN or inf anywhere (an element the kernel never wrote stays NaN) or an error above TOLERANCE[dtype]
    gives status 'wrong'.
    """
    out.fill_(float("nan"))
    result = launch()
    if result.device.type == "cuda":
        torch.cuda.synchronize()
    err = relative_error(result, ref)
    if math.isnan(err):
        return Checked("wrong", "output holds NaN or inf (unwritten or overflowed elements)", err)
    if err > TOLERANCE[dtype]:
        return Checked("wrong", f"relative error {err:.3g} > tolerance {TOLERANCE[dtype]:g}", err)
    return Checked("ok", "", err)


def run_config(
    problem,
    inputs,
    config: KernelConfig,
    ref: torch.Tensor,
    baseline_ms: dict[str, float],
    timing: str = "do_bench",
    warmup_ms: int = 25,
    rep_ms: int = 100,
):
    """Compile, launch, check and (if correct) time one config on one problem's inputs.

    timing, warmup_ms, rep_ms: as for time_callable. Never raises for a failure of the config itself: the
    KernelResult carries its status and error.
    """
    from gemmtune.kernels import Launcher
    from gemmtune.pruning import shared_memory_bytes
    from gemmtune.results import KernelResult

    result = KernelResult(
        problem,
        config,
        "ok",
        baseline_ms=dict(baseline_ms),
        predicted_shared_mem_bytes=shared_memory_bytes(config, problem.element_size),
    )
    with TritonTuningContext(config) as ctx:
        launcher = Launcher(problem, inputs, config)
        checked = check_output(launcher, launcher.out, ref, problem.dtype)
        _record_resources(result, launcher.compiled)
        result.status, result.error, result.rel_err = checked.status, checked.error, checked.rel_err
        if checked.status == "ok":
            t = time_callable(launcher, timing, warmup_ms, rep_ms)
            result.triton_time_ms, result.triton_p20_ms, result.triton_p80_ms = t.median_ms, t.p20_ms, t.p80_ms
    if ctx.status != "ok":
        result.status, result.error = ctx.status, ctx.error
    return result


def _record_resources(result, compiled) -> None:
    """Copy the compiler's report (registers, spills, shared memory) from Triton's compiled kernel."""
    if compiled is None:
        return
    result.n_regs = getattr(compiled, "n_regs", None)
    result.n_spills = getattr(compiled, "n_spills", None)
    result.shared_mem_bytes = getattr(getattr(compiled, "metadata", None), "shared", None)
