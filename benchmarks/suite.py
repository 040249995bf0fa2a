"""The kernel-speed suite (GPU benchmark, not a test): six MoE models × both GEMMs × token counts × modes.

    python benchmarks/suite.py run --out results/h200 [--models a,b] [--tokens 4096,16384] [--modes fwd,dx,dw]
        [--space 'benchmarks/spaces/suite-{mode}.toml'] [--retime-top 5]
    python benchmarks/suite.py summarize --results results/h200 [--readme README.md]

`run` sweeps each model's layer with `gemmtune sweep --model … --mode …` (one results file per model and
mode, each mode over its own space, resumable through its journal; a space without {mode} sweeps all modes
in one file). `summarize` reads those files and writes suite.parquet (one row per
model, gemm, M and mode: the best config, its TF/s, each torch baseline's TF/s from the same run, the ratio
to the faster baseline, and the share of the roofline) plus a markdown table; with --readme it replaces the
table between `<!-- suite:begin -->` and `<!-- suite:end -->`.

Roofline per shape: min(compute ceiling, bytes_moved / memory bandwidth) in TF/s, from the ceilings
measured on the project's H200: an 8192³ bf16 torch.mm at 806 TF/s, a device copy at
4.3 TB/s. bytes_moved is gemmtune.problem.Problem.bytes_moved (each operand read once, output written once).
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
from pathlib import Path

import pandas as pd

import gemmtune  # noqa: F401  (picks the backend before anything imports triton)
from gemmtune.problem import Problem
from gemmtune.results import best_per_problem, read_results, sort_problems

MODELS = ["mixtral-8x7b", "qwen3-30b-a3b", "deepseek-v3", "gpt-oss-20b", "llama4-scout", "olmoe-1b-7b"]
COMPUTE_TFLOPS = 806.0
MEMORY_TBPS = 4.3


def run(args) -> None:
    # A space path with {mode} in it names one space per mode: one sweep (and results file) per mode.
    per_mode = "{mode}" in args.space
    for model in args.models.split(","):
        for modes in args.modes.split(",") if per_mode else [args.modes]:
            cmd = ["gemmtune", "sweep", "--model", model, "--tokens", args.tokens, "--mode", modes,
                   "--space", args.space.format(mode=modes), "--retime-top", str(args.retime_top), "--out", args.out,
                   "--quiet"]
            print(" ".join(cmd), flush=True)
            subprocess.run(cmd, check=False)


def model_of(path: Path) -> str:
    """The model a `gemmtune sweep --model` results file is named after: its name's first field
    (gemmtune.cli.default_name)."""
    return Path(path).name.split("_")[0]


def roofline_tflops(problem: Problem, compute_tflops: float = COMPUTE_TFLOPS,
                    memory_tbps: float = MEMORY_TBPS) -> float:
    """min(compute ceiling, flops / (bytes_moved / memory ceiling)) in TF/s; the anchors' ceilings by default."""
    memory_bound = problem.flops / (problem.bytes_moved / (memory_tbps * 1e12)) / 1e12
    return min(compute_tflops, memory_bound)


def summarize(args) -> pd.DataFrame:
    rows = []
    # Every model sweep with uniform routing; where several files hold a shape and mode (a mode re-swept
    # after a kernel change), the newest file's row wins.
    for path in sorted(Path(args.results).glob("*_M*uniform_bf16.parquet")):
        model = model_of(path)
        if model not in MODELS:
            continue
        df, meta = read_results(path)
        for _, best in best_per_problem(df).iterrows():
            if int(best["M"]) not in args.token_counts:
                continue
            problem = Problem(best["mode"], int(best["E"]), int(best["M"]), int(best["N"]), int(best["K"]),
                              int(best["topk"]), best["dtype"], best["permute"], best["routing"], 0, best["gemm"])
            tf = lambda ms: problem.flops / (ms * 1e9) if pd.notna(ms) else math.nan  # noqa: E731
            roof = roofline_tflops(problem)
            rows.append(dict(
                model=model, gemm=best["gemm"], M=int(best["M"]), mode=best["mode"], E=problem.E, N=problem.N,
                K=problem.K, topk=problem.topk, config=best["config"], triton_ms=best["triton_time_ms"],
                triton_tflops=best["tflops"], torch_loop_tflops=tf(best["torch_loop_ms"]),
                torch_grouped_mm_tflops=tf(best["torch_grouped_mm_ms"]), speedup=best["speedup"],
                roofline_tflops=roof, roofline_pct=100 * best["tflops"] / roof, source=path.name,
                created_at=meta["created_at"],
            ))
    suite = pd.DataFrame(rows).sort_values("created_at").drop_duplicates(["model", "gemm", "M", "mode"], keep="last")
    model_order = suite["model"].map({m: i for i, m in enumerate(MODELS)})
    suite = sort_problems(suite.assign(_model=model_order), ["mode", "_model", "gemm", "M"]).drop(columns="_model")
    out = Path(args.results) / "suite.parquet"
    suite.to_parquet(out, index=False)
    table = markdown(suite)
    (Path(args.results) / "suite.md").write_text(table)
    print(table)
    if args.readme:
        replace_block(Path(args.readme), table)
    return suite


def markdown(suite: pd.DataFrame) -> str:
    lines = []
    for mode, rows in suite.groupby("mode", sort=False):
        geo = math.exp(rows["speedup"].map(math.log).mean())
        lines += [
            f"**{mode}**: best config ≥ best torch baseline on {int((rows['speedup'] >= 1).sum())} of {len(rows)} shapes; "
            f"geometric mean speedup {geo:.2f}×.",
            "",
            "| model | gemm | M | gemmtune TF/s | torch loop TF/s | torch._grouped_mm TF/s | speedup | % of roofline | best config |",
            "|---|---|---:|---:|---:|---:|---:|---:|---|",
        ]
        for _, r in rows.iterrows():
            lines.append(
                f"| {r.model} | {r.gemm} | {r.M} | {r.triton_tflops:.0f} | {r.torch_loop_tflops:.0f} | "
                f"{r.torch_grouped_mm_tflops:.0f} | {r.speedup:.2f}× | {r.roofline_pct:.0f} % | `{r.config}` |"
            )
        lines.append("")
    return "\n".join(lines)


def replace_block(readme: Path, table: str, block: str = "suite") -> None:
    """Replace the text between `<!-- {block}:begin -->` and `<!-- {block}:end -->` in readme with table;
    exits with a message naming the markers where readme lacks them."""
    begin, end = f"<!-- {block}:begin -->", f"<!-- {block}:end -->"
    text = readme.read_text()
    if begin not in text or end not in text:
        sys.exit(f"{readme} has no {begin} … {end} block")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    readme.write_text(f"{head}{begin}\n{table}\n{end}{tail}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("--out", default="results/h200")
    r.add_argument("--models", default=",".join(MODELS))
    r.add_argument("--tokens", default="4096,16384")
    r.add_argument("--modes", default="fwd,dx,dw")
    r.add_argument("--space", default="benchmarks/spaces/suite-{mode}.toml")
    r.add_argument("--retime-top", type=int, default=5, help="configs per shape re-timed after the screen")
    s = sub.add_parser("summarize")
    s.add_argument("--results", default="results/h200")
    s.add_argument("--tokens", default="4096,16384")
    s.add_argument("--readme", default=None)
    args = parser.parse_args()
    if args.command == "run":
        run(args)
    else:
        args.token_counts = {int(t) for t in args.tokens.split(",")}
        summarize(args)


if __name__ == "__main__":
    main()
