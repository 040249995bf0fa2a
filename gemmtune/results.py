"""Results: one KernelResult row per config, tables, and the Parquet/CSV files with their metadata.

Columns come in a fixed order: the problem, the config, status and error, times in milliseconds, speedup,
TF/s, GB/s, relative error, and the compiler's resource report. A results file's environment (device,
versions, timing method, seed, date) rides in the Parquet schema metadata under the key `gemmtune`, as JSON.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from gemmtune.config import CONFIG_CLASSES, KernelConfig, config_from_dict
from gemmtune.problem import Problem

METADATA_KEY = b"gemmtune"
PROBLEM_COLUMNS = ["mode", "gemm", "E", "M", "N", "K", "topk", "dtype", "permute", "routing", "seed"]
CONFIG_COLUMNS = list(dict.fromkeys(name for cls in CONFIG_CLASSES.values() for name in cls.field_names()))
MEASURE_COLUMNS = [
    "config",
    "status",
    "error",
    "triton_time_ms",
    "triton_p20_ms",
    "triton_p80_ms",
    "spread",
    "timing_stage",
    "torch_time_ms",
    "torch_baseline",
    "torch_loop_ms",
    "torch_grouped_mm_ms",
    "speedup",
    "tflops",
    "gbps",
    "rel_err",
    "n_regs",
    "n_spills",
    "shared_mem_bytes",
    "predicted_shared_mem_bytes",
]
COLUMNS = PROBLEM_COLUMNS + MEASURE_COLUMNS[:1] + CONFIG_COLUMNS + MEASURE_COLUMNS[1:]
UNITS = {
    "triton_time_ms": "ms",
    "triton_p20_ms": "ms",
    "triton_p80_ms": "ms",
    "spread": "(p75 - p25) / median of the re-timed samples (interquartile range over median; top-k rows only)",
    "timing_stage": "screen: one short timing; retime: re-timed among the top k, interleaved (see timing_stages)",
    "torch_time_ms": "ms",
    "torch_loop_ms": "ms",
    "torch_grouped_mm_ms": "ms",
    "tflops": "TFLOP/s (1e12 floating-point operations per second)",
    "gbps": "GB/s (1e9 bytes per second, fewest bytes the mode must move)",
    "speedup": "torch_time_ms / triton_time_ms (faster torch baseline)",
    "rel_err": "||out - ref||_F / ||ref||_F against an fp32 torch reference",
    "shared_mem_bytes": "bytes per block, as reported by Triton after compiling",
    "predicted_shared_mem_bytes": "bytes per block, gemmtune.pruning.shared_memory_bytes",
}


class ResultsError(ValueError):
    """A results file that is missing, empty, unreadable or not a gemmtune results file."""


@dataclass
class KernelResult:
    """The outcome of one config on one problem.

    Times in milliseconds (medians, p20/p80 for Triton). torch_time_ms is the faster torch baseline and
    speedup = torch_time_ms / triton_time_ms. tflops = problem.flops / time; gbps = problem.bytes_moved / time.
    Fields are None where they do not apply (a pruned or failed config has no time).
    """

    problem: Problem
    kernel_config: KernelConfig
    status: str
    error: str = ""
    rel_err: float | None = None
    triton_time_ms: float | None = None
    triton_p20_ms: float | None = None
    triton_p80_ms: float | None = None
    baseline_ms: dict[str, float] = field(default_factory=dict)
    n_regs: int | None = None
    n_spills: int | None = None
    shared_mem_bytes: int | None = None
    predicted_shared_mem_bytes: int | None = None
    spread: float | None = None
    timing_stage: str | None = None

    @property
    def torch_baseline(self) -> str | None:
        return min(self.baseline_ms, key=self.baseline_ms.get) if self.baseline_ms else None

    @property
    def torch_time_ms(self) -> float | None:
        return self.baseline_ms[self.torch_baseline] if self.baseline_ms else None

    @property
    def speedup(self) -> float | None:
        if self.triton_time_ms and self.torch_time_ms:
            return self.torch_time_ms / self.triton_time_ms
        return None

    @property
    def tflops(self) -> float | None:
        return self.problem.flops / (self.triton_time_ms * 1e9) if self.triton_time_ms else None

    @property
    def gbps(self) -> float | None:
        return self.problem.bytes_moved / (self.triton_time_ms * 1e6) if self.triton_time_ms else None

    def to_dict(self) -> dict:
        """One row with every column of COLUMNS (None where not applicable)."""
        row = {name: getattr(self.problem, name) for name in PROBLEM_COLUMNS}
        row.update(
            config=self.kernel_config.to_string(),
            status=self.status,
            error=self.error,
            triton_time_ms=self.triton_time_ms,
            triton_p20_ms=self.triton_p20_ms,
            triton_p80_ms=self.triton_p80_ms,
            spread=self.spread,
            timing_stage=self.timing_stage,
            torch_time_ms=self.torch_time_ms,
            torch_baseline=self.torch_baseline,
            torch_loop_ms=self.baseline_ms.get("torch_loop"),
            torch_grouped_mm_ms=self.baseline_ms.get("torch_grouped_mm"),
            speedup=self.speedup,
            tflops=self.tflops,
            gbps=self.gbps,
            rel_err=self.rel_err,
            n_regs=self.n_regs,
            n_spills=self.n_spills,
            shared_mem_bytes=self.shared_mem_bytes,
            predicted_shared_mem_bytes=self.predicted_shared_mem_bytes,
        )
        config = self.kernel_config.to_dict()
        row.update({name: config.get(name) for name in CONFIG_COLUMNS})
        return {name: row[name] for name in COLUMNS}

    @staticmethod
    def from_dict(row: dict) -> "KernelResult":
        """Rebuild a result from one row of a results table (inverse of to_dict)."""
        clean = {k: (None if _missing(v) else v) for k, v in row.items()}
        problem = Problem(**{k: _plain(clean[k]) for k in PROBLEM_COLUMNS})
        config = config_from_dict(problem.mode, {k: v for k, v in clean.items() if k in CONFIG_COLUMNS and v is not None})
        baselines = {
            name: clean[f"{name}_ms"] for name in ("torch_loop", "torch_grouped_mm") if clean.get(f"{name}_ms") is not None
        }
        return KernelResult(
            problem,
            config,
            clean["status"],
            clean.get("error") or "",
            clean.get("rel_err"),
            clean.get("triton_time_ms"),
            clean.get("triton_p20_ms"),
            clean.get("triton_p80_ms"),
            baselines,
            _int_or_none(clean.get("n_regs")),
            _int_or_none(clean.get("n_spills")),
            _int_or_none(clean.get("shared_mem_bytes")),
            _int_or_none(clean.get("predicted_shared_mem_bytes")),
            clean.get("spread"),
            clean.get("timing_stage"),
        )


def _missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA


def _plain(value):
    return value.item() if hasattr(value, "item") else value


def _int_or_none(value):
    return None if value is None else int(value)


def to_dataframe(results: list[KernelResult]) -> pd.DataFrame:
    """All results as a table in COLUMNS order, ranked per mode by speedup (descending), ok rows first."""
    df = pd.DataFrame([r.to_dict() for r in results], columns=COLUMNS)
    return rank(df)


def rank(df: pd.DataFrame) -> pd.DataFrame:
    """Sort rows: per problem (mode, gemm, M…), ok rows by triton time ascending, then the others by status."""
    if df.empty:
        return df.reset_index(drop=True)
    key = df.assign(_not_ok=df["status"] != "ok", _screened=screen_only(df))
    key = sort_problems(key, ["mode", "gemm", "E", "M", "N", "K", "_not_ok", "_screened", "triton_time_ms", "status"])
    return key.drop(columns=["_not_ok", "_screened"])


def screen_only(df: pd.DataFrame) -> pd.Series:
    """True for rows timed only by the engine's short screen (not re-timed among the top k). Rows of the serial
    engine, and files from before the column, say no stage: False."""
    if "timing_stage" not in df:
        return pd.Series(False, index=df.index)
    return df["timing_stage"].eq("screen")


def ranked_ok(df: pd.DataFrame) -> pd.DataFrame:
    """The ok rows, best first: re-timed rows before screen-only rows, each by time.

    The re-time stage measures the screen's top k again, interleaved and at length; a screen-only time is
    not comparable with it (a screen is a short burst, between compiles: on the H200 under the 700 W limit
    a config's screen time was 0.85-1.00× its re-time, a median per problem, docs/perf-notes.md entry 46),
    so it never outranks a re-timed one.
    """
    ok = ok_rows(df)
    ranked = ok.assign(_screened=screen_only(ok)).sort_values(["_screened", "triton_time_ms"], kind="stable")
    return ranked.drop(columns="_screened")


@dataclass
class SweepResults:
    """A sweep's results with its metadata (see write_parquet for the keys)."""

    results: list[KernelResult]
    metadata: dict

    def to_dataframe(self) -> pd.DataFrame:
        return to_dataframe(self.results)

    def to_parquet(self, path: Path) -> None:
        write_parquet(self.to_dataframe(), self.metadata, path)

    def to_csv(self, path: Path) -> None:
        write_csv(self.to_dataframe(), path)


def atomic_write(path: Path, write) -> None:
    """Write through a temporary file in the same folder, then rename: a reader never sees half a file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes the file private; give it a normal file's mode
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_parquet(df: pd.DataFrame, metadata: dict, path: Path) -> None:
    """Write `df` to Parquet with `metadata` (JSON) under the schema key `gemmtune`, and column units."""
    table = pa.Table.from_pandas(df, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[METADATA_KEY] = json.dumps({**metadata, "units": UNITS}, default=str).encode()
    table = table.replace_schema_metadata(meta)
    atomic_write(path, lambda tmp: pq.write_table(table, tmp))


def write_csv(df: pd.DataFrame, path: Path) -> None:
    atomic_write(path, lambda tmp: df.to_csv(tmp, index=False))


def read_results(path: str | Path) -> tuple[pd.DataFrame, dict]:
    """Read a results Parquet file: (table, metadata). Raises ResultsError if it is missing, empty or corrupt."""
    path = Path(path)
    if not path.is_file():
        raise ResultsError(f"results file {path} does not exist")
    if path.stat().st_size == 0:
        raise ResultsError(f"results file {path} is empty")
    try:
        table = pq.read_table(path)
    except (pa.ArrowException, OSError) as exc:
        raise ResultsError(f"results file {path} is not a readable Parquet file: {_first_line(exc)}") from None
    raw = (table.schema.metadata or {}).get(METADATA_KEY)
    if raw is None:
        raise ResultsError(f"{path} is a Parquet file but not a gemmtune results file (no '{METADATA_KEY.decode()}' metadata)")
    try:
        metadata = json.loads(raw)
    except json.JSONDecodeError:
        raise ResultsError(f"results file {path} has corrupt metadata") from None
    df = table.to_pandas()
    missing = [c for c in ("mode", "status", "config", "triton_time_ms") if c not in df.columns]
    if missing:
        raise ResultsError(f"results file {path} lacks the columns {', '.join(missing)}")
    return df, metadata


def _first_line(exc: BaseException) -> str:
    return (str(exc).splitlines() or [type(exc).__name__])[0]


def newest_results(folder: Path) -> Path:
    """The most recently written .parquet under `folder` (recursively). Raises ResultsError if none."""
    files = sorted(Path(folder).rglob("*.parquet"), key=lambda p: p.stat().st_mtime) if Path(folder).is_dir() else []
    if not files:
        raise ResultsError(f"no results files (*.parquet) under {folder}; run `gemmtune sweep` first or name a file")
    return files[-1]


def write_results(sweep: SweepResults, out_dir: Path, name: str) -> tuple[Path, Path]:
    """Write `<out_dir>/<name>.parquet` and `.csv` (each atomically); returns both paths."""
    df = sweep.to_dataframe()
    parquet, csv = Path(out_dir) / f"{name}.parquet", Path(out_dir) / f"{name}.csv"
    write_parquet(df, sweep.metadata, parquet)
    write_csv(df, csv)
    return parquet, csv


# A problem family: one grouped GEMM at every token count M (what a tuned-config table is keyed by).
FAMILY_COLUMNS = ["mode", "gemm", "E", "N", "K", "topk", "dtype", "permute", "routing"]
MODE_ORDER = {"fwd": 0, "dx": 1, "dw": 2}
GEMM_ORDER = {"gate_up": 0, "down": 1}


def ok_rows(df: pd.DataFrame) -> pd.DataFrame:
    """The rows that ran correctly and have a time."""
    return df[(df["status"] == "ok") & df["triton_time_ms"].notna()]


def sort_problems(df: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Rows ordered by `by`, with modes as fwd, dx, dw and gemms as gate_up, down (not alphabetically)."""
    def key(column: pd.Series) -> pd.Series:
        order = {"mode": MODE_ORDER, "gemm": GEMM_ORDER}.get(column.name)
        return column.map(lambda v: (order.get(v, len(order)), str(v))) if order else column

    return df.sort_values(by, key=key, kind="stable").reset_index(drop=True)


def best_per_problem(df: pd.DataFrame) -> pd.DataFrame:
    """The fastest ok row of each problem (family × M), ordered by mode, gemm, shape and M.

    Raises ResultsError when no row ran correctly.
    """
    ok = ok_rows(df)
    if ok.empty:
        raise ResultsError("no config ran correctly (no row has status 'ok' and a time)")
    keys = [c for c in FAMILY_COLUMNS + ["M"] if c in ok.columns]
    best = ranked_ok(ok).groupby(keys, sort=False, dropna=False).head(1)
    return sort_problems(best, keys)
