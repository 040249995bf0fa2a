"""Rendering results for the terminal: rich tables of ranked configs, sweep summaries, metadata, plans."""

from __future__ import annotations

import math

import pandas as pd
from rich.table import Table
from rich.text import Text  # config names hold brackets (tma[w]) that rich markup would eat

from gemmtune.results import rank, ranked_ok, screen_only
from gemmtune.runner import FAILED, STATUSES

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
    for _, group in rank(df).groupby(keys, sort=False, dropna=False):
        yield problem_title(group.iloc[0]), group


def ranked_table(rows: pd.DataFrame, title: str, top: int | None = 10) -> Table:
    """The fastest `ok` rows first (re-timed rows before screen-only ones, each by triton time), as a rich
    Table of at most `top` rows. A screen-only time is marked with *: the screen's short bursts read faster
    than the re-time (docs/perf-notes.md, entry 46), so the two are not comparable."""
    ok = ranked_ok(rows)
    if top:
        ok = ok.head(top)
    screened = screen_only(ok)
    caption = "* screen only: timed in a short burst, not re-timed" if screened.any() else None
    table = Table(title=title, title_justify="left", header_style="bold", caption=caption, caption_justify="left")
    for name in ["#", "config", "ms", "TF/s", "speedup", "rel err", "regs", "spills", "smem KB"]:
        # Numbers never wrap; the config string folds when the terminal is narrow.
        table.add_column(name, justify="left" if name == "config" else "right", no_wrap=name != "config",
                         min_width=28 if name == "config" else None)
    for position, (index, r) in enumerate(ok.iterrows(), 1):
        smem = r.get("shared_mem_bytes")
        table.add_row(
            str(position),
            Text(str(r["config"])),
            _fmt(r["triton_time_ms"], ".4f") + ("*" if screened[index] else ""),
            _fmt(r["tflops"], ".1f"),
            _fmt(r["speedup"], ".2f") + ("×" if pd.notna(r["speedup"]) else ""),
            _fmt(r["rel_err"], ".1e"),
            _fmt(r.get("n_regs"), ".0f"),
            _fmt(r.get("n_spills"), ".0f"),
            _fmt(smem / 1024 if pd.notna(smem) else None, ".0f"),
        )
    return table


def summary(rows: pd.DataFrame) -> str:
    """One line: counts per status, best speedup and best TF/s among ok rows, and the baselines."""
    counts = rows["status"].value_counts()
    parts = [f"{counts.get(s, 0)} {s}" for s in STATUSES if counts.get(s, 0)]
    ok = rows[rows["status"] == "ok"]
    line = f"{len(rows)} configs: " + ", ".join(parts)
    if not ok.empty:
        best = ranked_ok(ok).iloc[0]
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
        table.add_row(Text(str(r["config"])), str(r["status"]), str(r["error"]))
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


def models_table(presets) -> Table:
    """Model presets (gemmtune.models.ModelPreset) with the (N, K) of both GEMMs of their MoE layer."""
    table = Table(title="model presets", title_justify="left", header_style="bold")
    for name, justify in [("name", "left"), ("E", "right"), ("hidden", "right"), ("intermediate", "right"),
                          ("topk", "right"), ("gate_up N×K", "right"), ("down N×K", "right"), ("source", "left")]:
        table.add_column(name, justify=justify, no_wrap=name != "source", overflow="fold")
    for p in presets:
        shapes = [f"{n}×{k}" for n, k, _ in (p.gemm_shape("gate_up"), p.gemm_shape("down"))]
        table.add_row(p.name, str(p.experts), str(p.hidden_size), str(p.intermediate_size), str(p.topk), *shapes, p.source)
    return table


def best_by_m_table(best: pd.DataFrame) -> Table:
    """One row per (mode, gemm, shape, M): the fastest ok config, its TF/s and speedup over the faster torch baseline."""
    table = Table(title="best config per (mode, gemm, M)", title_justify="left", header_style="bold")
    for name, justify in [("mode", "left"), ("gemm", "left"), ("E", "right"), ("N", "right"), ("K", "right"),
                          ("topk", "right"), ("M", "right"), ("config", "left"), ("time ms", "right"),
                          ("TF/s", "right"), ("speedup", "right"), ("vs torch", "left")]:
        table.add_column(name, justify=justify, no_wrap=name == "config")
    for _, r in best.iterrows():
        baseline = f"{r['torch_baseline']} {_fmt(r['torch_time_ms'], '.4f')} ms" if pd.notna(r["torch_time_ms"]) else "–"
        table.add_row(
            str(r["mode"]), str(r["gemm"] or "–"), str(r["E"]), str(r["N"]), str(r["K"]), str(r["topk"]), str(r["M"]),
            Text(str(r["config"])), _fmt(r["triton_time_ms"], ".4f"), _fmt(r["tflops"], ".1f"),
            _fmt(r["speedup"], ".2f") + ("×" if pd.notna(r["speedup"]) else ""), baseline,
        )
    return table


def _ratio_cell(ratio: float, source: str, tolerance: float) -> str:
    if source == "unknown" or math.isnan(ratio):
        return "[dim]?[/dim]"
    if math.isinf(ratio):
        return "[red]fail[/red]"
    text = f"{ratio:.2f}" + ("*" if source == "measured" else "")
    return f"[green]{text}[/green]" if ratio <= 1 + tolerance + 1e-12 else f"[red]{text}[/red]"


def regret_table(matrix) -> Table:
    """A gemmtune.regret.RegretMatrix: time / best time per config (rows) and M (columns); shipped rows marked."""
    table = Table(title=matrix.title, title_justify="left", header_style="bold")
    table.add_column("ship", justify="center")
    table.add_column("config", no_wrap=True)
    table.add_column("best at", justify="right")
    for M in matrix.tokens:
        table.add_column(f"M={M}", justify="right")
    for name in matrix.shown():
        wins = ",".join(str(m) for m in matrix.tokens if matrix.winners[m] == name) or "–"
        cells = [_ratio_cell(matrix.ratios.at[name, m], matrix.sources.at[name, m], matrix.tolerance) for m in matrix.tokens]
        table.add_row("★" if name in matrix.shipped else "", Text(name), wins, *cells)
    return table


def regret_summary(matrix) -> str:
    """Which configs to ship and which M uses which, with its slowdown."""
    uses = ", ".join(
        f"M={m} → #{matrix.shipped.index(matrix.assignment[m]) + 1 if matrix.assignment[m] in matrix.shipped else '?'}"
        f" ({matrix.ratios.at[matrix.assignment[m], m]:.2f}×)"
        for m in matrix.tokens
    )
    shipped = "; ".join(f"#{i} {name}" for i, name in enumerate(matrix.shipped, 1))
    line = (
        f"ship {len(matrix.shipped)} config(s) for {len(matrix.tokens)} token counts (each M within "
        f"{matrix.tolerance:.0%} of its best): {shipped} | {uses}"
    )
    if matrix.measured:
        line += f" | {matrix.measured} cells measured now (*)"
    return line


def export_table(doc: dict) -> Table:
    """A tuned-config document (gemmtune.export): one row per entry and M."""
    table = Table(
        title=f"tuned configs for {doc['device_name']} (sm {doc['compute_capability']}, triton {doc['triton_version']})",
        title_justify="left", header_style="bold",
    )
    for name, justify in [("mode", "left"), ("gemm", "left"), ("E", "right"), ("N", "right"), ("K", "right"),
                          ("M", "right"), ("config", "left"), ("time ms", "right"), ("TF/s", "right"), ("slowdown", "right")]:
        table.add_column(name, justify=justify, no_wrap=name == "config")
    for e in doc["entries"]:
        for M, c in e["configs_by_M"].items():
            table.add_row(e["mode"], e["gemm"] or "–", str(e["E"]), str(e["N"]), str(e["K"]), M, Text(c["config"]),
                          _fmt(c["triton_time_ms"], ".4f"), _fmt(c["tflops"], ".1f"), _fmt(c["slowdown"], ".2f") + "×")
    return table


def compare_table(rows: pd.DataFrame, title: str) -> Table:
    """Matched rows of gemmtune.compare: time in A, time in B, ratio B/A (red when B is slower)."""
    table = Table(title=title, title_justify="left", header_style="bold")
    for name, justify in [("problem", "left"), ("config", "left"), ("A ms", "right"), ("B ms", "right"), ("B/A", "right")]:
        table.add_column(name, justify=justify, no_wrap=name == "config")
    for _, r in rows.iterrows():
        gemm = f"{r['gemm']} " if r.get("gemm") else ""
        problem = f"{gemm}{r['mode']} E={r['E']} M={r['M']} N={r['N']} K={r['K']} topk={r['topk']}"
        color = "red" if r["ratio"] > 1 else "green"
        table.add_row(problem, Text(str(r["config"])), _fmt(r["time_a_ms"], ".4f"), _fmt(r["time_b_ms"], ".4f"),
                      f"[{color}]{r['ratio']:.3f}[/{color}]")
    return table
