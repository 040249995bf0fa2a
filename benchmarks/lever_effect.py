"""What one knob is worth: per problem of a results file, the best config with each of the knob's values.

    python benchmarks/lever_effect.py results/h200/x.parquet --knob half_tail --knob BLOCK_SIZE_M=256

For each problem (mode, gemm, E, M, N, K) and knob: the best `ok` config's TF/s with the knob set and
without, and the ratio of the two. A bare knob is set at any value but its default (True, SPLIT_M above 1,
TAIL_ROWS above 0); `KNOB=VALUE` is set at that value only, so a knob with a non-zero default (BLOCK_SIZE_M)
can be asked about one of its values.
Configs of one sweep only, so both sides were timed in the same run against the same torch baselines.
`stages` says how each side's best was timed (screen or retime: the short screen reads 0-15 % faster than
the re-time of the same config on the H200, docs/perf-notes.md entry 46).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

import gemmtune  # noqa: F401  (picks the backend before anything imports triton)
from gemmtune.results import ok_rows, read_results
from gemmtune.space import FIELD_DEFAULTS

PROBLEM = ["mode", "gemm", "E", "M", "N", "K"]


def parse_knob(spec: str) -> tuple[str, object | None]:
    """`KNOB` → (KNOB, None); `KNOB=VALUE` → (KNOB, VALUE as the knob's type: int, or bool from true/false).

    Raises ValueError for an unknown knob, or a value that is not of the knob's type."""
    name, _, text = spec.partition("=")
    if name not in FIELD_DEFAULTS:
        raise ValueError(f"unknown knob {name!r}")
    if not text:
        return name, None
    if isinstance(FIELD_DEFAULTS[name], bool):
        if text.lower() not in ("true", "false"):
            raise ValueError(f"{name} takes true or false, got {text!r}")
        return name, text.lower() == "true"
    try:
        return name, int(text)
    except ValueError:
        raise ValueError(f"{name} takes a whole number, got {text!r}") from None


def best_off_and_on(rows: pd.DataFrame, knob: str, value=None) -> tuple[pd.Series | None, pd.Series | None]:
    """The fastest of `rows` (ok rows of one problem) with the knob off and on; None for a side without rows.
    On is `value` where one is given (off: every other value), else any value but the knob's default.
    Raises KeyError when the knob is not a column of the results."""
    rows = rows.dropna(subset=[knob])
    on = rows[knob] == value if value is not None else rows[knob] != FIELD_DEFAULTS[knob]
    sides = rows[~on], rows[on]
    return tuple(None if side.empty else side.loc[side["tflops"].idxmax()] for side in sides)


def lever_table(df: pd.DataFrame, knob: str, value=None) -> pd.DataFrame:
    """One row per problem: best TF/s with the knob off and on (see best_off_and_on), and on / off.

    Raises KeyError when the knob is not a column of the results.
    """
    rows = []
    for key, group in ok_rows(df).groupby(PROBLEM, sort=False):
        best_off, best_on = best_off_and_on(group, knob, value)
        if best_off is None or best_on is None:
            continue
        label = knob if value is None else f"{knob}={value}"
        rows.append({**dict(zip(PROBLEM, key)), "knob": label, "off_tflops": best_off["tflops"],
                     "on_tflops": best_on["tflops"], "ratio": best_on["tflops"] / best_off["tflops"],
                     "stages": f"{best_off['timing_stage']}/{best_on['timing_stage']}", "best_on": best_on["config"],
                     "best": group.loc[group["tflops"].idxmax(), "config"],
                     "speedup": group["speedup"].max()})
    return pd.DataFrame(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--knob", action="append", required=True, help="KNOB, or KNOB=VALUE")
    parser.add_argument("--csv", type=Path, help="also write the table here")
    args = parser.parse_args(argv)
    try:
        knobs = [parse_knob(spec) for spec in args.knob]
    except ValueError as error:
        parser.error(str(error))
    tables = []
    for path in args.files:
        df, _ = read_results(path)
        for knob, value in knobs:
            if knob in df.columns:
                tables.append(lever_table(df, knob, value))
    table = pd.concat(tables, ignore_index=True) if tables else pd.DataFrame()
    if table.empty:
        print("no problem has configs with both values of these knobs")
        return 1
    with pd.option_context("display.width", 250, "display.max_columns", 20, "display.max_colwidth", 70):
        print(table.drop(columns=["E", "N", "K"]).round(3).to_string(index=False))
    if args.csv:
        table.to_csv(args.csv, index=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
