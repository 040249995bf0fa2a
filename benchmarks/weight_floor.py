"""How close each problem's best config comes to the time of reading its weights once (GPU benchmark files).

    python benchmarks/weight_floor.py results/h200/m512/memory-bound-space/*_fwd_M512_*.parquet

Issue 5's goal at 512 tokens: ≥ 85 % of the memory roofline, weight bytes / 4.3 TB/s (the device copy
bandwidth measured on the project's H200, as in benchmarks/suite.py). Per problem of each forward
results file: the best config, its time, floor / time, its ratio to the best torch baseline of the same
run, and the best time with and without each of warp_specialize and merged tails (TAIL_ROWS > 0; files
written before that knob have no TAIL_ROWS column and get no such figure), each with the stage that timed it:
a sweep re-times only its top configs, so one side's best may carry only a screen time.
"""

from __future__ import annotations

import argparse

import gemmtune  # noqa: F401  (picks the backend before anything imports triton)
from gemmtune.problem import DTYPES
from gemmtune.results import best_per_problem, ok_rows, read_results
from lever_effect import best_off_and_on
from suite import MEMORY_TBPS, model_of

# The knobs whose best time with and without each problem's line gives, by their names there.
KNOBS = {"warp_specialize": "warp_specialize", "TAIL_ROWS": "merged tails"}


def stage_label(row) -> str:
    """' (screen)' or ' (retime)': how the row was timed. A config's screen time was 0.85-1.00× its re-time on
    the H200 (a median per problem, docs/perf-notes.md entry 46), so a best that was only screened is marked as
    such. Files without the column get no label."""
    stage = row.get("timing_stage")
    return f" ({stage})" if isinstance(stage, str) else ""


def best_with_and_without(rows) -> str:
    """'<knob> best without X ms, with Y ms' for each knob of KNOBS whose column `rows` (one problem's ok rows)
    has: a file written before a knob existed lacks its column."""
    parts = []
    for knob, name in KNOBS.items():
        if knob in rows:
            sides = zip(("without", "with"), best_off_and_on(rows, knob))
            figures = ", ".join(f"{side} {best['triton_time_ms']:.4f} ms{stage_label(best)}" for side, best in sides
                                if best is not None)
            parts.append(f"{name} best {figures}")
    return "; ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    for path in args.files:
        df, _ = read_results(path)
        ok = ok_rows(df)
        for _, best in best_per_problem(df).iterrows():
            weight_bytes = int(best["E"]) * int(best["N"]) * int(best["K"]) * DTYPES[best["dtype"]].itemsize
            floor_ms = weight_bytes / (MEMORY_TBPS * 1e12) * 1e3
            same = ok[(ok["gemm"] == best["gemm"]) & (ok["M"] == best["M"]) & (ok["mode"] == best["mode"])]
            model = model_of(path)
            print(f"{model} {best['mode']} {best['gemm']} M={best['M']}: {best['config']} {best['triton_time_ms']:.4f} ms, "
                  f"{100 * floor_ms / best['triton_time_ms']:.0f} % of the weight-read floor {floor_ms:.4f} ms, "
                  f"{best['speedup']:.2f}× the best torch baseline; {best_with_and_without(same)}")


if __name__ == "__main__":
    main()
