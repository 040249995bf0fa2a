"""Hand-built results tables and files for tests of what reads results (best, regret, export, plots, compare).

Rows are real KernelResult rows (to_dict), so they carry every column in the order a sweep writes them.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from gemmtune.config import config_class
from gemmtune.problem import Problem
from gemmtune.results import KernelResult, to_dataframe, write_parquet

# The two GEMMs of a small MoE layer: (gemm, N, K, permute), as gemmtune.models.layer_problems makes them.
GEMMS = {"gate_up": (64, 64, "x"), "down": (64, 32, "y")}
E, TOPK = 4, 2

METADATA = {
    "device_name": "NVIDIA H100 80GB HBM3",
    "compute_capability": "9.0",
    "backend": "cuda",
    "interpreter": False,
    "torch_version": "2.9.0",
    "triton_version": "3.6.0",
    "gemmtune_version": "0.1.0",
    "timing_method": "do_bench",
    "space": "test",
    "created_at": "2025-01-01T00:00:00+00:00",
}


def problem(M: int, mode: str = "fwd", gemm: str = "gate_up") -> Problem:
    N, K, permute = GEMMS[gemm]
    return Problem(mode, E, M, N, K, TOPK, "bf16", permute, "uniform", 0, gemm)


def config(mode: str = "fwd", gemm: str = "gate_up", **knobs):
    """A config of `mode` with the permutation flags of `gemm`'s problem, as the sweep's space makes them."""
    permute = GEMMS[gemm][2]
    return config_class(mode)(permute_x=permute == "x", permute_y=permute == "y", **knobs)


def result(M: int, knobs: dict, time_ms: float | None, status: str = "ok", mode: str = "fwd", gemm: str = "gate_up",
           baselines: dict | None = None) -> KernelResult:
    """One row: `knobs` (e.g. {"BLOCK_SIZE_M": 32}) at M tokens, timed `time_ms` when status is ok."""
    baselines = {"torch_loop": 2.0, "torch_grouped_mm": 1.5} if baselines is None else baselines
    return KernelResult(
        problem(M, mode, gemm),
        config(mode, gemm, **knobs),
        status,
        error="" if status == "ok" else f"{status} (test)",
        triton_time_ms=time_ms if status == "ok" else None,
        triton_p20_ms=time_ms if status == "ok" else None,
        triton_p80_ms=time_ms if status == "ok" else None,
        baseline_ms=baselines if status != "pruned" else {},
        rel_err=1e-3 if status == "ok" else None,
    )


def table(times: dict, mode: str = "fwd", gemm: str = "gate_up") -> pd.DataFrame:
    """A results table from {(BLOCK_SIZE_M, BLOCK_SIZE_N): {M: time_ms or a status string}}."""
    return to_dataframe(results(times, mode, gemm))


def results(times: dict, mode: str = "fwd", gemm: str = "gate_up") -> list[KernelResult]:
    out = []
    for (bm, bn), by_m in times.items():
        for M, t in by_m.items():
            status, t = (t, None) if isinstance(t, str) else ("ok", t)
            out.append(result(M, {"BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": bn}, t, status, mode, gemm))
    return out


def name(bm: int, bn: int, mode: str = "fwd", gemm: str = "gate_up") -> str:
    """The config string of the knobs, as the results file spells it."""
    return config(mode, gemm, BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn).to_string()


def write(path: Path, df: pd.DataFrame, **metadata) -> Path:
    write_parquet(df, {**METADATA, **metadata}, path)
    return path


def cli_invoker(monkeypatch):
    """A function that runs the gemmtune CLI with wide consoles (so rich never wraps a config string)."""
    from rich.console import Console
    from typer.testing import CliRunner

    from gemmtune import cli

    monkeypatch.setattr(cli, "console", Console(width=250))
    monkeypatch.setattr(cli, "err_console", Console(width=250, stderr=True))
    runner = CliRunner()
    return lambda *args: runner.invoke(cli.app, [str(a) for a in args])
