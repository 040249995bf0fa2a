"""Does the screen put the config that wins the re-time among its top k? (GPU benchmark journals.)

    python benchmarks/screen_rank.py results/h200/<experiment>/*.journal.jsonl [--top 5]

The sweep screens every config briefly (gemmtune.engine.retime SCREEN, warmup 1 ms, rep 5 ms) and re-times
only the fastest `--retime-top` of them for longer, in interleaved rounds (RETIME). A short burst reads
faster than sustained load under the H200's 700 W limit (docs/perf-notes.md, entries 45-46), and by more for
some configs than for others, so the sustained winner could fall out of a small top k. A journal keeps both
times of every re-timed config: its screen row ("result" record) and its re-time row ("retime" record).
Per problem this prints
- the sustained winner, its screen rank, and its ratio to the best torch baseline of the re-time's rounds;
- the best re-timed config among the screen's first `--top`, and how much slower it is than the winner;
- Spearman's rank correlation between the screen and re-time orders of the re-timed configs;
- the median of screen time / re-time time over them (below 1: the screen reads faster).
Journals whose sweep re-timed no more than `--top` configs say nothing about ranks beyond it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from gemmtune.engine.journal import read_journal


def screen_and_retime(path: Path) -> pd.DataFrame:
    """One row per re-timed config of the journal: problem fields, config, screen_ms, screen_rank (1 = fastest
    of the problem's ok screen rows), retime_ms and speedup (against the re-time's baselines). Raises
    ValueError for a file without a journal header."""
    header, records, _ = read_journal(path)
    if header is None:
        raise ValueError(f"{path}: not a gemmtune journal (no header line)")
    screen, retime = {}, {}
    for record in records:
        row = record.get("row") or {}
        if record.get("kind") == "result" and row.get("status") == "ok" and row.get("triton_time_ms") is not None:
            screen[record["key"]] = (record["problem"], row)
        elif record.get("kind") == "retime" and row.get("triton_time_ms") is not None:
            retime[record["key"]] = row
    ranks = pd.DataFrame(
        [{"key": key, "problem": problem, "screen_ms": row["triton_time_ms"]} for key, (problem, row) in screen.items()]
    )
    if ranks.empty:
        return ranks
    ranks["screen_rank"] = ranks.groupby("problem")["screen_ms"].rank(method="first").astype(int)
    rows = []
    for r in ranks.itertuples():
        if r.key in retime:
            row = retime[r.key]
            rows.append({"problem": r.problem, "mode": row["mode"], "gemm": row["gemm"], "M": row["M"],
                         "config": row["config"], "screen_ms": r.screen_ms, "screen_rank": r.screen_rank,
                         "retime_ms": row["triton_time_ms"], "speedup": row.get("speedup")})
    return pd.DataFrame(rows)


def report(df: pd.DataFrame, top: int) -> list[str]:
    """One line per problem of screen_and_retime's table (see the module docstring)."""
    lines = []
    for _, group in df.groupby("problem", sort=False):
        group = group.sort_values("retime_ms")
        best = group.iloc[0]
        versus = f"{best['speedup']:.3f}× best torch" if pd.notna(best["speedup"]) else "no torch baseline"
        head = f"{best['mode']} {best['gemm']} M={best['M']}: {len(group)} re-timed; winner {best['config']} " \
               f"(screen rank {best['screen_rank']}, {best['retime_ms']:.4f} ms, {versus})"
        in_top = group[group["screen_rank"] <= top]
        if in_top.empty:
            top_part = f"none of the screen's first {top} re-timed"
        else:
            pick = in_top.iloc[0]
            top_part = (f"best of the screen's first {top}: {pick['config']} {pick['retime_ms']:.4f} ms, "
                        f"{pick['retime_ms'] / best['retime_ms']:.3f}× the winner's time")
        # Spearman's rho: Pearson's correlation of the ranks (pandas' own "spearman" needs scipy).
        rho = group["screen_ms"].rank().corr(group["retime_ms"].rank()) if len(group) > 2 else float("nan")
        ratio = (group["screen_ms"] / group["retime_ms"]).median()
        lines.append(f"{head}; {top_part}; Spearman {rho:.2f}; screen/re-time {ratio:.3f}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("journals", nargs="+", type=Path)
    parser.add_argument("--top", type=int, default=5, help="the smaller re-time whose pick is compared (default 5)")
    args = parser.parse_args()
    for path in args.journals:
        try:
            df = screen_and_retime(path)
        except (OSError, ValueError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(f"{path.name}:")
        for line in report(df, args.top) if not df.empty else ["  no re-timed configs"]:
            print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
