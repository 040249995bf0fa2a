"""Exporting tuned configs to JSON, and looking them up at run time.

`gemmtune export results.parquet -o tuned.json` writes, per problem family, the config to use at each
tuned token count M; `gemmtune.lookup("tuned.json", mode="fwd", gemm="gate_up", E=64, N=2048, K=2048,
M=3000)` returns the KernelConfig for the nearest tuned M. The configs come from the regret set cover
(gemmtune.regret) on the file's recorded times: the fewest configs such that every M is within `tolerance`
of its best (tolerance 0 ships each M's own best).

File format (version 1), one JSON object:

    {
      "format": "gemmtune-tuned-configs",
      "version": 1,                          # format version; readers refuse other versions
      "device_name": "NVIDIA H100 80GB HBM3",
      "compute_capability": "9.0",
      "backend": "cuda",                     # "interpreter" when the sweep ran on Triton's CPU interpreter
      "triton_version": "3.6.0",             # configs are tuned for this Triton (and this GPU)
      "torch_version": "2.9.0",
      "gemmtune_version": "0.1.0",
      "created_at": "2025-01-01T00:00:00+00:00",   # when the export ran (UTC, ISO 8601)
      "tolerance": 0.05,                     # each M is within 5 % of its best config's time
      "source": {"file": "...parquet", "created_at": "...", "timing_method": "..."},
      "entries": [
        {
          "mode": "fwd", "gemm": "gate_up",  # mode: fwd | dx | dw; gemm: gate_up | down | "" (a --shape sweep)
          "E": 64, "N": 2048, "K": 2048,     # experts and the forward GEMM's sizes (W is (E, N, K))
          "topk": 8, "dtype": "bf16", "permute": "x", "routing": "uniform",
          "configs_by_M": {                  # token count (a string: JSON keys are strings) -> config
            "512": {
              "BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8,
              "num_warps": 4, "num_stages": 3, ...,   # every field of the mode's KernelConfig dataclass
              "config": "fwd BM64 BN128 BK64 G8 w4 s3",
              "triton_time_ms": 0.0123,      # median time of this config at this M
              "tflops": 512.3,               # 2·M·topk·N·K / time
              "slowdown": 1.02               # time / the best config's time at this M (1.0 = the best)
            }
          }
        }
      ]
    }

Entries are unique per (mode, gemm, E, N, K, topk, dtype, permute, routing). The device, Triton version and
compute capability apply to the whole file: tune and export once per GPU and Triton version.

lookup() matches mode, E, N, K (and gemm, topk, dtype, permute, routing where given), then takes the tuned
M nearest to the asked M in log space (|log M − log m| smallest; a tie goes to the larger m). Parsed files
are cached per path, re-read when the file's mtime, size or inode changes; the cache is guarded by a lock,
so lookups from several threads are safe.
"""

from __future__ import annotations

import datetime as dt
import json
import operator
import os
import threading
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pandas as pd

from gemmtune.config import KernelConfig, config_from_dict
from gemmtune.regret import DEFAULT_TOLERANCE, regret_matrix

FORMAT_NAME = "gemmtune-tuned-configs"
FORMAT_VERSION = 1
ENTRY_KEYS = ("mode", "gemm", "E", "N", "K", "topk", "dtype", "permute", "routing")


class TunedFileError(ValueError):
    """A tuned-config file that is missing, not JSON, or not in the gemmtune format of this version."""


class TunedConfigNotFound(LookupError):
    """No tuned config matches what lookup() asked for (or several entries do and the ask is ambiguous)."""


def export_tuned(df: pd.DataFrame, metadata: dict, tolerance: float = DEFAULT_TOLERANCE, source: str = "") -> dict:
    """The tuned-config document (see the module docstring) of a results table and its metadata.

    Uses recorded times only (nothing is re-run). Raises RegretError (a ValueError) when no row is ok.
    """
    from gemmtune import __version__

    entries = []
    for matrix in regret_matrix(df, measure=None, tolerance=tolerance):
        rows = df[(df[list(matrix.family)] == pd.Series(matrix.family)).all(axis=1) & (df["status"] == "ok")]
        configs_by_m = {}
        for m in matrix.tokens:
            name = matrix.assignment[m]
            at_m = rows[(rows["M"] == m) & (rows["config"] == name)].sort_values("triton_time_ms").iloc[0]
            configs_by_m[str(m)] = {
                **matrix.configs[name].to_dict(),
                "config": name,
                "triton_time_ms": float(at_m["triton_time_ms"]),
                "tflops": float(at_m["tflops"]),
                "slowdown": round(float(matrix.ratios.at[name, m]), 6),
            }
        entries.append({**{k: matrix.family.get(k, "") for k in ENTRY_KEYS}, "configs_by_M": configs_by_m})
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "device_name": metadata.get("device_name", ""),
        "compute_capability": str(metadata.get("compute_capability", "")),
        "backend": metadata.get("backend", ""),
        "triton_version": metadata.get("triton_version", ""),
        "torch_version": metadata.get("torch_version", ""),
        "gemmtune_version": __version__,
        "created_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "tolerance": tolerance,
        "source": {
            "file": source,
            "created_at": metadata.get("created_at", ""),
            "timing_method": metadata.get("timing_method", ""),
            "gemmtune_version": metadata.get("gemmtune_version", ""),
        },
        "entries": entries,
    }


def export_file(results: str | Path, out: str | Path, tolerance: float = DEFAULT_TOLERANCE) -> dict:
    """Read a results file, write its tuned configs to `out` (atomically), and return the document."""
    from gemmtune.results import atomic_write, read_results

    df, metadata = read_results(results)
    doc = export_tuned(df, metadata, tolerance, source=str(results))
    text = json.dumps(doc, indent=2) + "\n"
    atomic_write(Path(out), lambda tmp: Path(tmp).write_text(text))
    return doc


@dataclass(frozen=True)
class _Entry:
    key: dict
    tokens: tuple[int, ...]
    configs: dict[int, KernelConfig]

    def describe(self) -> str:
        k = self.key
        gemm = f" gemm={k['gemm']}" if k["gemm"] else ""
        return (
            f"mode={k['mode']}{gemm} E={k['E']} N={k['N']} K={k['K']} topk={k['topk']} dtype={k['dtype']} "
            f"permute={k['permute']} routing={k['routing']} (M {', '.join(map(str, self.tokens))})"
        )


def _parse(path: Path, text: str) -> list[_Entry]:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TunedFileError(f"tuned-config file {path} is not valid JSON: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT_NAME:
        raise TunedFileError(f"{path} is not a gemmtune tuned-config file (no \"format\": \"{FORMAT_NAME}\")")
    if doc.get("version") != FORMAT_VERSION:
        raise TunedFileError(
            f"tuned-config file {path} has format version {doc.get('version')!r}; this gemmtune reads version "
            f"{FORMAT_VERSION}: re-export it"
        )
    entries = []
    try:
        for raw in doc["entries"]:
            key = {k: raw.get(k, "") for k in ENTRY_KEYS}
            configs = {int(m): config_from_dict(key["mode"], values) for m, values in raw["configs_by_M"].items()}
            if not configs:
                continue
            entries.append(_Entry(key, tuple(sorted(configs)), configs))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise TunedFileError(f"tuned-config file {path} has a malformed entry: {type(exc).__name__}: {exc}") from None
    return entries


_CACHE: dict[str, tuple[tuple, list[_Entry]]] = {}
_LOCK = threading.Lock()


def load_tuned(path: str | Path) -> list[_Entry]:
    """The parsed entries of a tuned-config file, cached per path until the file changes. Thread-safe."""
    path = Path(path)
    with _LOCK:
        try:
            st = os.stat(path)
        except FileNotFoundError:
            raise TunedFileError(f"tuned-config file {path} does not exist; write one with `gemmtune export`") from None
        stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
        key = str(path.resolve())
        cached = _CACHE.get(key)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        entries = _parse(path, path.read_text())
        _CACHE[key] = (stamp, entries)
        return entries


def nearest_token_count(tokens, M: int) -> int:
    """The element of `tokens` nearest to M in log space; a tie goes to the larger one. Exact (no floats)."""
    return min(tokens, key=lambda m: (Fraction(max(m, M), min(m, M)), -m))


def lookup(
    path: str | Path,
    *,
    mode: str,
    E: int,
    N: int,
    K: int,
    M: int,
    gemm: str | None = None,
    topk: int | None = None,
    dtype: str | None = None,
    permute: str | None = None,
    routing: str | None = None,
) -> KernelConfig:
    """The tuned KernelConfig (the mode's dataclass) for this GEMM at the tuned M nearest to `M`.

    mode, E, N, K must match an entry of the file; gemm, topk, dtype, permute and routing narrow the match
    when given (None matches any). Raises TunedConfigNotFound (a LookupError) naming what was asked and what
    the file has when no entry matches or several do; TunedFileError for a missing or malformed file.
    """
    try:
        tokens = operator.index(M)  # Python or numpy integers; not floats
    except TypeError:
        tokens = 0
    if isinstance(M, bool) or tokens <= 0:
        raise ValueError(f"M must be a positive whole number of tokens, got {M!r}")
    M = tokens
    entries = load_tuned(path)
    asked = {"mode": mode, "gemm": gemm, "E": E, "N": N, "K": K, "topk": topk, "dtype": dtype, "permute": permute,
             "routing": routing}
    wanted = {k: v for k, v in asked.items() if v is not None}
    matches = [e for e in entries if all(e.key[k] == v for k, v in wanted.items())]
    if len(matches) != 1:
        what = " ".join(f"{k}={v}" for k, v in wanted.items()) + f" (M={M})"
        have = "; ".join(e.describe() for e in entries) or "no entries"
        if matches:
            raise TunedConfigNotFound(
                f"{len(matches)} entries of {path} match {what}; pass gemm, topk, dtype, permute or routing to "
                f"choose one: {'; '.join(e.describe() for e in matches)}"
            )
        raise TunedConfigNotFound(f"no tuned config in {path} for {what}; the file has: {have}")
    entry = matches[0]
    return entry.configs[nearest_token_count(entry.tokens, M)]


def clear_cache() -> None:
    """Forget every parsed file (the next lookup re-reads)."""
    with _LOCK:
        _CACHE.clear()
