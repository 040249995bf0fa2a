"""The GPU worker: one process per GPU (or one CPU process on the interpreter) that checks and times configs.

`GpuWorker` is a plain class, served over a Pipe by gemmtune.engine.process (a Ray actor could wrap the same
class). Requests and replies are plain dicts:

    setup(problem, timing, fuse_variants)  → {"ok", "device", "baseline_timing", "setup_s"}
        builds gemmtune.sweep.ProblemContext once per problem: inputs, fp32 references, timed torch baselines.
    run(config, warmup_ms, rep_ms)          → {"row": KernelResult.to_dict(), "load_s", "compiled_here", "exit"}
        loads the config's kernel (a Triton cache hit after the compile stage; compiled_here counts Triton
        cache misses, i.e. kernels this worker had to compile itself), checks and screens it
        (gemmtune.runner.run_config).
    retime(configs, rounds, warmup_ms, rep_ms, min_samples) → {"timings": [{"median_ms", "p20_ms", "p80_ms", "spread",
        "samples"} | {"error"}], "baseline_ms": [[fuse_mul_post, name, median_ms]], "exit"}: re-times the
        given configs and the problem's torch baselines in the same interleaved rounds (gemmtune.engine.retime).

"exit": True means a sticky CUDA error (illegal memory access, misaligned address, unspecified launch failure,
illegal instruction, device-side assert) poisoned this process's CUDA context: the reply is the last one, the
process exits and its owner starts a fresh worker. Other errors (out of resources, compile errors, a refused
argument) are the config's status and the worker goes on.
"""

from __future__ import annotations

import os
import time

STICKY_ERRORS = (
    "illegal memory access",
    "misaligned address",
    "unspecified launch failure",
    "illegal instruction",
    "device-side assert",
    "an illegal address",
    "hardware stack error",
    "invalid program counter",
)


def is_sticky(message: str) -> bool:
    """True when an error message names a CUDA error that leaves the context unusable."""
    text = message.lower()
    return any(pattern in text for pattern in STICKY_ERRORS)


def context_is_dead() -> bool:
    """Probe the CUDA context with a synchronize and a tiny kernel; True when either fails."""
    import torch

    if not torch.cuda.is_available():
        return False
    try:
        torch.cuda.synchronize()
        torch.ones(1, device="cuda").add_(1).item()
    except Exception:  # noqa: BLE001  (any failure here means the context is gone)
        return True
    return False


class GpuWorker:
    """Worker body: the problem's context (set up once per problem), then one config per request."""

    preload = ("gemmtune.engine.preload",)  # for the fork server (gemmtune.engine.process)

    def __init__(self, backend: str):
        self.backend = backend
        self.device = "cuda" if backend == "cuda" else "cpu"
        self.context = None
        self.timing = "interpreter"
        self._cache_hits: list[bool] = []
        if self.device == "cuda":
            from triton import knobs

            def listen(*, cache_hit: bool, **_):
                self._cache_hits.append(cache_hit)

            knobs.compilation.listener = listen

    def setup(self, problem: dict, timing: str, fuse_variants: list[bool]) -> dict:
        from gemmtune.problem import Problem
        from gemmtune.sweep import ProblemContext

        start = time.perf_counter()
        self.context = None  # free the previous problem's tensors first
        self.timing = timing
        baseline_timing = timing
        try:
            self.context = ProblemContext(Problem(**problem), self.device, timing, set(fuse_variants))
        except Exception as exc:  # noqa: BLE001
            if timing != "cudagraph" or is_sticky(str(exc)):
                raise
            # A torch baseline that cannot be captured in a CUDA graph is timed by do_bench instead.
            baseline_timing = f"do_bench (cudagraph capture failed: {type(exc).__name__})"
            self.context = ProblemContext(Problem(**problem), self.device, "do_bench", set(fuse_variants))
        return {
            "ok": True,
            "device": self._device_name(),
            "baseline_timing": baseline_timing,
            "setup_s": time.perf_counter() - start,
            "pid": os.getpid(),
        }

    def _device_name(self) -> str:
        import torch

        return torch.cuda.get_device_name() if self.device == "cuda" else "cpu (Triton interpreter)"

    def run(self, config: dict, warmup_ms: int = 25, rep_ms: int = 100) -> dict:
        from gemmtune.config import config_from_dict
        from gemmtune.engine import faults
        from gemmtune.kernels import Launcher
        from gemmtune.results import KernelResult
        from gemmtune.runner import TritonTuningContext, run_config

        problem, ctx = self.context.problem, self.context
        cfg = config_from_dict(problem.mode, config)
        load_s = None
        result = None
        self._cache_hits.clear()
        with TritonTuningContext(cfg) as guard:
            faults.inject(cfg.to_string(), "run")
            if self.device == "cuda":
                start = time.perf_counter()
                try:  # load from the Triton cache (compile stage) outside the timed region, time it
                    Launcher(problem, ctx.inputs, cfg).compile()
                except Exception:  # noqa: BLE001  (run_config below classifies the same failure)
                    pass
                load_s = time.perf_counter() - start
            result = run_config(
                problem, ctx.inputs, cfg, ctx.refs[cfg.fuse_mul_post], ctx.baseline_ms[cfg.fuse_mul_post],
                self.timing, warmup_ms, rep_ms,
            )
        if guard.status != "ok":
            result = KernelResult(problem, cfg, guard.status, guard.error)
        if result.triton_time_ms is not None:
            result.timing_stage = "screen"
        sticky = self._sticky(result.status, result.error)
        if sticky:
            result.status, result.error = "crashed", f"sticky CUDA error: {result.error}"
        compiled_here = sum(not hit for hit in self._cache_hits)
        return {"row": result.to_dict(), "load_s": load_s, "compiled_here": compiled_here, "exit": sticky}

    def _sticky(self, status: str, error: str) -> bool:
        if status != "runtime_error":
            return False
        return is_sticky(error) or (self.device == "cuda" and context_is_dead())

    def retime(self, configs: list[dict], rounds: int, warmup_ms: int, rep_ms: int, min_samples: int = 1) -> dict:
        from gemmtune.config import config_from_dict
        from gemmtune.engine.retime import retime_interleaved
        from gemmtune.kernels import Launcher

        problem, ctx = self.context.problem, self.context
        cfgs = [config_from_dict(problem.mode, c) for c in configs]
        # The torch baselines join the rounds: their times and the configs' then share the clock's drift.
        baselines = [(fuse, name, fn) for fuse in sorted({c.fuse_mul_post for c in cfgs})
                     for name, fn in ctx.baselines[fuse].items()]
        launchers = [Launcher(problem, ctx.inputs, c) for c in cfgs] + [fn for _, _, fn in baselines]
        timings = retime_interleaved(launchers, self.timing, rounds, warmup_ms, rep_ms, min_samples)
        timings, baseline_timings = timings[: len(cfgs)], timings[len(cfgs):]
        baseline_ms = [[fuse, name, t["median_ms"]] for (fuse, name, _), t in zip(baselines, baseline_timings)
                       if "median_ms" in t]
        errors = " ".join(t.get("error", "") for t in timings)
        sticky = is_sticky(errors) or (bool(errors.strip()) and self.device == "cuda" and context_is_dead())
        return {"timings": timings, "baseline_ms": baseline_ms, "exit": sticky}
