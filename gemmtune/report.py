"""Rendering results for the terminal: rich tables of ranked configs, sweep summaries, metadata, plans."""

from __future__ import annotations

import math

import pandas as pd
from rich.table import Table

from gemmtune.runner import FAILED

PROBLEM_KEYS = ["mode", "gemm", "E", "M", "N", "K", "topk", "permute", "routing"]


def _fmt(value, spec: str) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return format(value, spec)


def problem_title(row) -> str:
    gemm = f"{row['gemm']} " if row.get("gemm") else ""
    return (
        f"{gemm}{row['mode']}  E={row['E']} M={row['M']} N={row['N']} K={row['K']} topk={row['topk']} "
        f"{row['dtype']} permute={row['permute']} routing={row['routing']}"
    )


def problems(df: pd.DataFrame):
    """(title, rows) per problem in the table, in first-appearance order."""
    keys = [k for k in PROBLEM_KEYS if k in df.columns]
    for _, group in df.groupby(keys, sort=False, dropna=False):
        yield problem_title(group.iloc[0]), group


def ranked_table(rows: pd.DataFrame, title: str, top: int | None = 10) -> Table:
    """The fastest `ok` rows first (by triton time), as a rich Table of at most `top` rows."""
    ok = rows[rows["status"] == "ok"].sort_values("triton_time_ms", kind="stable")
    if top:
        ok = ok.head(top)
    table = Table(title=title, title_justify="left", header_style="bold")
    for name, justify in [
        ("#", "right"),
        ("config", "left"),
        ("time ms", "right"),
        ("TF/s", "right"),
        ("GB/s", "right"),
        ("speedup", "right"),
        ("torch ms", "right"),
        ("rel err", "right"),
        ("regs", "right"),
        ("spills", "right"),
        ("smem KB", "right"),
    ]:
        table.add_column(name, justify=justify, no_wrap=name == "config")
    for rank, (_, r) in enumerate(ok.iterrows(), 1):
        smem = r.get("shared_mem_bytes")
        table.add_row(
            str(rank),
            str(r["config"]),
            _fmt(r["triton_time_ms"], ".4f"),
            _fmt(r["tflops"], ".1f"),
            _fmt(r["gbps"], ".0f"),
            _fmt(r["speedup"], ".2f") + ("×" if pd.notna(r["speedup"]) else ""),
            _fmt(r["torch_time_ms"], ".4f"),
            _fmt(r["rel_err"], ".1e"),
            _fmt(r.get("n_regs"), ".0f"),
            _fmt(r.get("n_spills"), ".0f"),
            _fmt(smem / 1024 if pd.notna(smem) else None, ".0f"),
        )
    return table


def summary(rows: pd.DataFrame) -> str:
    """One line: counts per status, best speedup and best TF/s among ok rows, and the baselines."""
    counts = rows["status"].value_counts()
    parts = [f"{counts.get(s, 0)} {s}" for s in ["ok", "wrong", *FAILED, "pruned"] if counts.get(s, 0)]
    ok = rows[rows["status"] == "ok"]
    line = f"{len(rows)} configs: " + ", ".join(parts)
    if not ok.empty:
        best = ok.loc[ok["triton_time_ms"].idxmin()]
        line += f" | best {best['tflops']:.1f} TF/s ({best['triton_time_ms']:.4f} ms)"
        if pd.notna(best["speedup"]):
            line += f", {best['speedup']:.2f}× vs {best['torch_baseline']} ({best['torch_time_ms']:.4f} ms)"
    baselines = [
        f"{name} {rows[col].dropna().iloc[0]:.4f} ms"
        for name, col in [("torch_loop", "torch_loop_ms"), ("torch_grouped_mm", "torch_grouped_mm_ms")]
        if col in rows and rows[col].notna().any()
    ]
    if baselines:
        line += " | baselines: " + ", ".join(baselines)
    return line


def failures_table(rows: pd.DataFrame, limit: int = 5) -> Table | None:
    """The first few failed or wrong configs with their errors, or None if every run config was ok."""
    bad = rows[rows["status"].isin(["wrong", *FAILED])]
    if bad.empty:
        return None
    table = Table(title=f"{len(bad)} failed or wrong (first {min(limit, len(bad))})", title_justify="left")
    table.add_column("config")
    table.add_column("status")
    table.add_column("error", overflow="fold")
    for _, r in bad.head(limit).iterrows():
        table.add_row(str(r["config"]), str(r["status"]), str(r["error"]))
    return table


def metadata_table(meta: dict) -> Table:
    """The file's metadata as key/value rows (the per-problem list and units are left out)."""
    table = Table(title="metadata", title_justify="left", show_header=False)
    table.add_column("key", style="bold")
    table.add_column("value", overflow="fold")
    for key, value in meta.items():
        if key in ("problems", "units", "device"):
            continue
        table.add_row(key, ", ".join(map(str, value)) if isinstance(value, list) else str(value))
    return table


def plan_table(plan) -> Table:
    """What a dry run reports: per problem, configs in the space, pruned per rule, left to run."""
    rules = sorted({rule for p in plan.problems for rule in p.space.counts_by_rule()})
    table = Table(title=f"space {plan.space.name!r} on {plan.device.name}", title_justify="left")
    table.add_column("problem")
    table.add_column("space", justify="right")
    for rule in rules:
        table.add_column(f"pruned: {rule}", justify="right")
    table.add_column("to run", justify="right", style="bold")
    for p in plan.problems:
        counts = p.space.counts_by_rule()
        table.add_row(p.problem.describe(), str(p.space.total), *[str(counts.get(r, 0)) for r in rules], str(len(p.space.kept)))
    return table
