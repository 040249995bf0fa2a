"""The compile stage: build every config's kernel ahead of timing, in CPU worker processes, for the target GPU.

Each compile worker (a `Compiler` served by gemmtune.engine.process) installs a compile-only Triton driver
that reports the target GPU (compute capability, warp size) without touching CUDA, and compiles each config
through Triton's JITFunction.warmup on 'meta'-device inputs of the problem's shapes and dtypes: no GPU memory,
no CUDA context. The kernels land in Triton's cache (TRITON_CACHE_DIR, shared with the GPU workers), so the GPU
worker's first launch of a config loads it instead of compiling it. NUM_SMS, a constexpr of every kernel, is
pinned to the target's SM count through GEMMTUNE_NUM_SMS, so both sides build the same kernel.

The compiler's report per config: registers per thread and spills (local memory per thread, in 4-byte words as
Triton counts them) read from the cubin by `cuobjdump -res-usage`, and dynamic shared memory per block from
Triton's metadata. A config whose report exceeds the device (shared memory > SIZE_SMEM, or
registers·warp size·num_warps > NUM_REGS) is `out_of_resources` and never reaches the GPU. Compile workers run
at a lower CPU priority than the GPU worker.

On the interpreter there is nothing to compile; the engine skips this stage.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

from gemmtune.device import DeviceProperties


def target_of(device: DeviceProperties) -> dict:
    """The compile target of `device` as plain values: arch (e.g. 90), warp_size, num_sms."""
    return {"arch": device.arch, "warp_size": device.WARP_SIZE, "num_sms": device.NUM_SM}


def compile_worker_env(target: dict) -> dict[str, str]:
    """Environment of a compile worker: NUM_SMS pinned, CUDA availability checked by NVML (no cuInit)."""
    return {"GEMMTUNE_NUM_SMS": str(target["num_sms"]), "PYTORCH_NVML_BASED_CUDA_CHECK": "1"}


def meta_inputs(problem):
    """gemmtune.problem.Inputs of `problem`'s shapes and dtypes on the 'meta' device (no memory, no data)."""
    import torch

    from gemmtune.problem import Inputs

    dt, rows = problem.torch_dtype, problem.rows
    x_rows = problem.M if problem.permute_x else rows

    def meta(*shape, dtype=dt):
        return torch.empty(*shape, dtype=dtype, device="meta")

    inputs = Inputs(m_sizes=meta(problem.E, dtype=torch.int32), gather_indices=meta(rows, dtype=torch.int32))
    if problem.mode in ("fwd", "dw"):
        inputs.x = meta(x_rows, problem.K)
    if problem.mode in ("fwd", "dx"):
        inputs.w = meta(problem.E, problem.N, problem.K)
    if problem.mode in ("dx", "dw"):
        inputs.dy = meta(rows, problem.N)
    if problem.mode == "fwd":
        inputs.topk_weights = meta(rows)
    return inputs


def _install_compile_only_driver(target: dict) -> None:
    """Make Triton compile for `target` without a CUDA context: current device 0, null stream, fixed arch."""
    from triton.backends.compiler import GPUTarget
    from triton.backends.nvidia.driver import CudaDriver
    from triton.runtime.driver import driver

    class CompileOnlyDriver(CudaDriver):
        def __init__(self):  # no CudaUtils: nothing is loaded or launched
            self.get_current_device = lambda: 0
            self.set_current_device = lambda device: None
            self.get_current_stream = lambda device=None: 0
            self.get_device_capability = lambda device=None: divmod(target["arch"], 10)

        def get_current_target(self):
            return GPUTarget("cuda", target["arch"], target["warp_size"])

    driver.set_active(CompileOnlyDriver())


def nvidia_tool(name: str) -> Path:
    """Path of a CUDA binary that Triton ships with its NVIDIA backend (cuobjdump, ptxas, nvdisasm); it may be
    missing on an install without that backend."""
    import triton

    return Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / name


def resource_usage(cubin: str | Path) -> tuple[int | None, int | None]:
    """(registers per thread, spills) of a cubin's kernel, from `cuobjdump -res-usage`.

    spills: local memory per thread in 4-byte words, the unit of Triton's CompiledKernel.n_spills
    (CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES / 4).
    (None, None) when cuobjdump (shipped with Triton) is missing or its output has no kernel line.
    """
    try:
        text = subprocess.run([str(nvidia_tool("cuobjdump")), "-res-usage", str(cubin)], capture_output=True,
                              text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return None, None
    match = re.search(r"REG:(\d+).*?LOCAL:(\d+)", text)
    return (int(match.group(1)), int(match.group(2)) // 4) if match else (None, None)


class Compiler:
    """Compile-worker body (see gemmtune.engine.process for the protocol).

    Runs at a lower CPU priority (nice +10) than the GPU worker, whose launches and timing must not wait for a core.
    setup(problem, target) once per problem; then compile(config) per config, replying
    {"status": "compiled", "n_regs", "n_spills", "shared_mem_bytes", "compile_s"} or
    {"status": "compile_error" | "out_of_resources", "error"} for the config's own failure, or
    {"status": "passthrough", "error"} when compiling ahead failed for another reason (the GPU worker then
    compiles and judges the config itself).
    """

    preload = ("gemmtune.engine.preload",)  # for the fork server (gemmtune.engine.process)

    def __init__(self, niceness: int = 10):
        self.problem = None
        self.inputs = None
        try:  # below the GPU worker: a screen timed while the pool compiles keeps its CPU
            os.nice(niceness)
        except OSError:
            pass

    def setup(self, problem: dict, target: dict) -> dict:
        from gemmtune.problem import Problem

        _install_compile_only_driver(target)
        self.problem = Problem(**problem)
        self.inputs = meta_inputs(self.problem)
        return {"ok": True, "pid": os.getpid()}

    def compile(self, config: dict) -> dict:
        from gemmtune.config import config_from_dict
        from gemmtune.engine import faults
        from gemmtune.kernels import Launcher
        from gemmtune.runner import classify

        cfg = config_from_dict(self.problem.mode, config)
        start = time.perf_counter()
        try:
            faults.inject(cfg.to_string(), "compile")
            launcher = Launcher(self.problem, self.inputs, cfg)
            compiled = launcher.compile(load=False)  # build only: loading would need a CUDA context
        except Exception as exc:  # noqa: BLE001  (becomes a status)
            status, error = classify(exc)
            return {"status": status if status != "runtime_error" else "passthrough", "error": error}
        if compiled is None:
            return {"status": "passthrough", "error": "Triton returned no compiled kernel"}
        cubin = next((p for name, p in compiled.metadata_group.items() if name.endswith(".cubin")), None)
        n_regs, n_spills = resource_usage(cubin) if cubin else (None, None)
        return {
            "status": "compiled",
            "n_regs": n_regs,
            "n_spills": n_spills,
            "shared_mem_bytes": getattr(compiled.metadata, "shared", None),
            "compile_s": time.perf_counter() - start,
        }


def exceeds_device(report: dict, num_warps: int, device: DeviceProperties) -> str | None:
    """Why a compiled config cannot run on `device` (shared memory or registers over the limit), or None."""
    shared, regs = report.get("shared_mem_bytes"), report.get("n_regs")
    if shared is not None and shared > device.SIZE_SMEM:
        return f"shared memory: required {shared:,}, limit {device.SIZE_SMEM:,}"
    if regs is not None and regs * device.WARP_SIZE * num_warps > device.NUM_REGS:
        return f"registers: required {regs * device.WARP_SIZE * num_warps:,} ({regs}/thread), limit {device.NUM_REGS:,}"
    return None
