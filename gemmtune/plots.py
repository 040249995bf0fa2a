"""Figures of a results file (PNG, matplotlib's Agg renderer; no display needed).

Per problem family (mode, gemm, shape; see gemmtune.regret):
- `<family>_heatmap.png`: TF/s over BLOCK_SIZE_M × BLOCK_SIZE_N, the best over the other knobs, one panel
  per token count M (blank cells: no ok config with that tile).
- `<family>_tflops_vs_M.png`: TF/s against M for the shipped configs (the regret set at `tolerance`, recorded
  times only), each M's own best, and the torch baselines (torch_loop, torch_grouped_mm), whose TF/s use
  the kernels' formula 2·M·topk·N·K / time.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pandas as pd

from gemmtune.regret import DEFAULT_TOLERANCE, families, regret_matrix
from gemmtune.results import ok_rows

BASELINES = {"torch_loop": "torch_loop_ms", "torch_grouped_mm": "torch_grouped_mm_ms"}


class PlotError(ValueError):
    """Nothing to plot, or matplotlib is missing."""


def _figure(width: float, height: float):
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotError("plots need matplotlib: pip install 'gemmtune[plot]'") from None
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def family_stem(family: dict) -> str:
    """A file-name stem such as `fwd_gate_up_E64_N2048_K2048_topk8_bf16_uniform`."""
    parts = [family["mode"], family.get("gemm") or f"perm-{family['permute']}", f"E{family['E']}",
             f"N{family['N']}", f"K{family['K']}", f"topk{family['topk']}", family["dtype"], family["routing"]]
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", "_".join(map(str, parts)))


def flops(family: dict, M: int) -> int:
    """2·M·topk·N·K: the FLOPs of one grouped GEMM of the family at M tokens (fwd, dX and dW alike)."""
    return 2 * int(M) * family["topk"] * family["N"] * family["K"]


def _tflops(family: dict, M: int, ms: float) -> float:
    return flops(family, M) / (ms * 1e9) if ms and math.isfinite(ms) else math.nan


def heatmap(family: dict, rows: pd.DataFrame, path: Path) -> Path:
    """TF/s over BLOCK_SIZE_M × BLOCK_SIZE_N, best over the other knobs, one panel per M."""
    ok = ok_rows(rows)
    tokens = sorted(ok["M"].unique())
    cols = min(len(tokens), 3)
    nrows = math.ceil(len(tokens) / cols)
    fig = _figure(4.2 * cols, 3.6 * nrows)
    axes = fig.subplots(nrows, cols, squeeze=False).ravel()
    for ax, M in zip(axes, tokens):
        grid = ok[ok["M"] == M].pivot_table(index="BLOCK_SIZE_M", columns="BLOCK_SIZE_N", values="tflops", aggfunc="max")
        image = ax.imshow(grid.to_numpy(dtype=float), origin="lower", cmap="viridis", aspect="auto")
        ax.set_xticks(range(len(grid.columns)), [str(int(v)) for v in grid.columns])
        ax.set_yticks(range(len(grid.index)), [str(int(v)) for v in grid.index])
        ax.set_xlabel("BLOCK_SIZE_N")
        ax.set_ylabel("BLOCK_SIZE_M")
        ax.set_title(f"M = {M}")
        top = grid.max().max()
        for i, bm in enumerate(grid.index):
            for j, bn in enumerate(grid.columns):
                value = grid.at[bm, bn]
                if pd.notna(value):
                    ax.text(j, i, f"{value:.3g}", ha="center", va="center", fontsize=8,
                            color="black" if value > 0.6 * top else "white")
        fig.colorbar(image, ax=ax, label="TF/s")
    for ax in axes[len(tokens):]:
        ax.set_visible(False)
    fig.suptitle(f"{family_stem(family)}\nTF/s, best over the other knobs", fontsize="medium")
    fig.savefig(path, dpi=100)
    return path


def tflops_vs_m(family: dict, rows: pd.DataFrame, matrix, path: Path) -> Path:
    """TF/s against M: the shipped configs, each M's best, and the torch baselines."""
    fig = _figure(7.5, 4.8)
    ax = fig.subplots()
    ok = ok_rows(rows)
    tokens = matrix.tokens
    for name in matrix.shipped:
        at = ok[ok["config"] == name].groupby("M")["tflops"].max()
        xs = [m for m in tokens if m in at.index]
        ax.plot(xs, [at[m] for m in xs], marker="o", label=f"shipped: {name}")
    ax.plot(tokens, [_tflops(family, m, matrix.best_ms[m]) for m in tokens], "k--", marker="x", label="best at each M")
    for label, column in BASELINES.items():
        if column not in rows:
            continue
        times = pd.to_numeric(rows[column], errors="coerce").groupby(rows["M"]).min().dropna()
        xs = [m for m in tokens if m in times.index]
        if xs:
            ax.plot(xs, [_tflops(family, m, times[m]) for m in xs], ":", marker="s", label=label)
    ax.set_xscale("log", base=2)
    ax.set_xticks(tokens, [str(m) for m in tokens])
    ax.set_xlabel("tokens M")
    ax.set_ylabel("TF/s")
    # Two lines: the family name is long, and a one-line title runs off a narrow figure.
    ax.set_title(f"{family_stem(family)}\nshipped configs: within {matrix.tolerance:.0%} of the best at every M",
                 fontsize="medium")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.savefig(path, dpi=100)
    return path


def plot_results(df: pd.DataFrame, out_dir: str | Path, tolerance: float = DEFAULT_TOLERANCE) -> list[Path]:
    """Write both figures of every family with an ok row into `out_dir`; returns the paths written.

    Raises PlotError (or RegretError) when no row ran correctly.
    """
    matrices = {tuple(m.family.items()): m for m in regret_matrix(df, measure=None, tolerance=tolerance)}
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for family, rows in families(df):
        matrix = matrices.get(tuple(family.items()))
        if matrix is None:
            continue
        stem = family_stem(family)
        written.append(heatmap(family, rows, out_dir / f"{stem}_heatmap.png"))
        written.append(tflops_vs_m(family, rows, matrix, out_dir / f"{stem}_tflops_vs_M.png"))
    if not written:
        raise PlotError("no config ran correctly: nothing to plot")
    return written
