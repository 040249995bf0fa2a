"""Two sweeps side by side: the same (problem, config) timed in file A and in file B.

A row matches when its problem (mode, gemm, E, M, N, K, topk, dtype, permute, routing) and its config
string are the same in both files and both ran correctly. ratio = time B / time A: above 1 means B is
slower. The summary is the geometric mean of the ratios over the matched rows, with the counts of ok rows
found in one file only (absent from the other, or not ok there).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from gemmtune.results import FAMILY_COLUMNS, ok_rows, sort_problems

MATCH_COLUMNS = FAMILY_COLUMNS[:3] + ["M"] + FAMILY_COLUMNS[3:] + ["config"]


class CompareError(ValueError):
    """Two results files with nothing in common to compare."""


@dataclass
class Comparison:
    """rows: MATCH_COLUMNS + time_a_ms, time_b_ms, ratio (B/A), one row per matched (problem, config)."""

    rows: pd.DataFrame
    only_a: int
    only_b: int

    @property
    def matched(self) -> int:
        return len(self.rows)

    @property
    def geomean_ratio(self) -> float:
        return float(np.exp(np.log(self.rows["ratio"].to_numpy(dtype=float)).mean()))

    def summary(self) -> str:
        g = self.geomean_ratio
        verdict = "B faster" if g < 1 else "B slower" if g > 1 else "same"
        return (
            f"geometric mean ratio B/A {g:.3f} ({verdict}) over {self.matched} matched (problem, config) pairs; "
            f"unmatched: {self.only_a} only in A, {self.only_b} only in B"
        )


def _times(df: pd.DataFrame) -> pd.Series:
    ok = ok_rows(df)
    keys = [c for c in MATCH_COLUMNS if c in ok.columns]
    return ok.groupby(keys, dropna=False)["triton_time_ms"].min()


def compare_results(a: pd.DataFrame, b: pd.DataFrame) -> Comparison:
    """Match the ok rows of two results tables. Raises CompareError when no (problem, config) is ok in both."""
    ta, tb = _times(a), _times(b)
    if ta.empty or tb.empty:
        raise CompareError(f"no config ran correctly in file {'A' if ta.empty else 'B'}: nothing to compare")
    joined = pd.concat({"time_a_ms": ta, "time_b_ms": tb}, axis=1, join="inner")
    if joined.empty:
        raise CompareError("no (problem, config) pair is ok in both files: they share no problem or config")
    rows = joined.reset_index()
    rows["ratio"] = rows["time_b_ms"] / rows["time_a_ms"]
    rows = sort_problems(rows, [c for c in MATCH_COLUMNS if c in rows.columns])
    return Comparison(rows, only_a=len(ta) - len(rows), only_b=len(tb) - len(rows))


def most_changed(rows: pd.DataFrame, top: int) -> pd.DataFrame:
    """The `top` rows whose ratio is farthest from 1 (in log space), in table order."""
    change = rows["ratio"].map(lambda r: abs(math.log(r)) if r > 0 else math.inf)
    return rows.loc[change.nlargest(top).index].sort_index()
