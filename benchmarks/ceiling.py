"""The roofline measured in the same run as the kernels it judges (GPU benchmark, not a test).

    python benchmarks/ceiling.py FILE... [--rounds 5] [--out results/h200/ceiling] [--readme README.md]

benchmarks/suite.py takes its two ceilings from ../shared/h200-anchors.md: an 8192³ bf16 torch.mm at 806 TF/s
and a 1 GiB device-to-device copy at 4.3 TB/s (bytes read + written). On the project's H200 that torch.mm ran
at 800 TF/s and 1980 MHz timed alone on an idle GPU, and at 658-686 TF/s in interleaved rounds beside the
suite's GEMMs, at the 700 W limit (docs/perf-notes.md entry 49). So this script measures both ceilings in
the same rounds as the kernels. For the best config of each problem in the results files (the pick of
`gemmtune best` and of the suite), it checks the config against the torch reference, then times it, the
torch baselines, that torch.mm and that copy in interleaved rounds (gemmtune.engine.retime, the sweep's
re-time, at its budget), and writes OUT/ceiling.parquet (one row per problem) and OUT/ceiling.md; with
--readme it replaces the table between `<!-- ceiling:begin -->` and `<!-- ceiling:end -->`.

A row's roofline is suite.roofline_tflops with the run's ceilings: min(torch.mm TF/s, flops / (bytes_moved /
copy bandwidth)); the anchors' roofline is beside it. A file that is missing or not a results file is one
line on stderr and exit 2, before the GPU is touched.
"""

from __future__ import annotations

import argparse
import math
import sys
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd

import gemmtune  # noqa: F401  (picks the backend before anything imports triton)
from gemmtune.results import KernelResult, best_per_problem, read_results
from suite import model_of, replace_block, roofline_tflops

DENSE = 8192  # the anchors' compute ceiling: an 8192³ bf16 torch.mm
COPY_BYTES = 1 << 30  # the anchors' memory ceiling: a 1 GiB device-to-device copy


def best_rows(paths: list[Path]) -> list[tuple[str, Path, KernelResult]]:
    """(model, file, best KernelResult) per problem of each results file, the model as suite.model_of names it.
    Raises OSError or ValueError for a file that is missing or unreadable."""
    found = []
    for path in paths:
        df, _ = read_results(path)
        for _, row in best_per_problem(df).iterrows():
            found.append((model_of(path), path, KernelResult.from_dict(row.to_dict())))
    return found


def ceiling_launchers() -> dict:
    """The two ceilings as zero-argument launchers on the current GPU, by their table names."""
    import torch

    a, b, c = (torch.randn(DENSE, DENSE, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    src = torch.empty(COPY_BYTES // 2, device="cuda", dtype=torch.bfloat16)
    dst = torch.empty_like(src)
    return {"dense": lambda: torch.mm(a, b, out=c), "copy": lambda: dst.copy_(src)}


def measure(model: str, path: Path, result: KernelResult, ceilings: dict, rounds: int) -> dict:
    """One table row: the config checked, then timed with the torch baselines and the ceilings in `rounds`
    interleaved rounds at the sweep's re-time budget. TF/s from medians; a config whose check fails keeps its
    status and is not timed."""
    from gemmtune.engine.retime import retime_do_bench
    from gemmtune.kernels import Launcher
    from gemmtune.problem import make_inputs
    from gemmtune.reference import baselines, reference
    from gemmtune.runner import check_output

    problem = result.problem
    row = dict(model=model, mode=problem.mode, gemm=problem.gemm, E=problem.E, M=problem.M, N=problem.N,
               K=problem.K, topk=problem.topk, config=result.kernel_config.to_string(), source=str(path))
    inputs = make_inputs(problem, "cuda")
    ours = Launcher(problem, inputs, result.kernel_config)
    checked = check_output(ours, ours.out, reference(problem, inputs), problem.dtype)
    row["status"] = checked.status
    if checked.status != "ok":
        return row
    named = {"ours": ours, **baselines(problem, inputs), **ceilings}
    timings = dict(zip(named, retime_do_bench(list(named.values()), rounds)))
    return row | figures(problem, {name: t.get("median_ms", math.nan) for name, t in timings.items()})


def figures(problem, ms: dict) -> dict:
    """A row's rates from median times in ms by launcher name ('ours', 'torch_loop', optional
    'torch_grouped_mm', 'dense', 'copy'): TF/s, the speedup over the faster torch baseline, the ceilings (TF/s,
    TB/s read + written), the run's roofline and ours as a percentage of it and of the anchors' roofline."""
    tflops = {name: problem.flops / (ms[name] * 1e9) for name in ("ours", "torch_loop", "torch_grouped_mm")
              if name in ms}
    dense_tflops = 2 * DENSE**3 / (ms["dense"] * 1e9)
    copy_tbps = 2 * COPY_BYTES / (ms["copy"] * 1e9)
    roofline = roofline_tflops(problem, dense_tflops, copy_tbps)
    return dict(
        ours_ms=ms["ours"], ours_tflops=tflops["ours"], torch_loop_tflops=tflops.get("torch_loop", math.nan),
        torch_grouped_mm_tflops=tflops.get("torch_grouped_mm", math.nan),
        speedup=min((t for name, t in ms.items() if name.startswith("torch") and not math.isnan(t)),
                    default=math.nan) / ms["ours"],
        dense_tflops=dense_tflops, copy_tbps=copy_tbps, roofline_tflops=roofline,
        roofline_pct=100 * tflops["ours"] / roofline,
        anchors_roofline_pct=100 * tflops["ours"] / roofline_tflops(problem),
    )


def markdown(table: pd.DataFrame, header: str) -> str:
    """The rows as a markdown table under a line naming the device, the versions and the date."""
    lines = [header, "",
             "| model | gemm | M | gemmtune TF/s | torch loop TF/s | torch._grouped_mm TF/s | 8192³ torch.mm TF/s | "
             "copy TB/s | % of the run's roofline | % of the anchors' roofline |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in table.itertuples():
        if r.status != "ok":
            lines.append(f"| {r.model} | {r.gemm} | {r.M} | {r.status} | | | | | | |")
            continue
        lines.append(f"| {r.model} | {r.gemm} | {r.M} | {r.ours_tflops:.0f} | {r.torch_loop_tflops:.0f} | "
                     f"{r.torch_grouped_mm_tflops:.0f} | {r.dense_tflops:.0f} | {r.copy_tbps:.2f} | "
                     f"{r.roofline_pct:.0f} % | {r.anchors_roofline_pct:.0f} % |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path, help="gemmtune results files (.parquet)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", type=Path, default=Path("results/h200/ceiling"))
    parser.add_argument("--readme", type=Path, default=None)
    args = parser.parse_args()
    try:
        shapes = best_rows(args.files)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    import torch
    import triton

    ceilings = ceiling_launchers()
    rows = []
    for model, path, result in shapes:
        rows.append(measure(model, path, result, ceilings, args.rounds))
        print(" ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in rows[-1].items()),
              flush=True)
        torch.cuda.empty_cache()
    table = pd.DataFrame(rows)
    created = datetime.now(timezone.utc).isoformat(timespec="seconds")
    table = table.assign(device=torch.cuda.get_device_name(), torch_version=torch.__version__,
                         triton_version=triton.__version__, created_at=created)
    header = (f"{torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}, {created}; "
              f"{args.rounds} interleaved rounds per row")
    args.out.mkdir(parents=True, exist_ok=True)
    table.to_parquet(args.out / "ceiling.parquet", index=False)
    text = markdown(table, header)
    (args.out / "ceiling.md").write_text(text)
    print(text)
    if args.readme:
        replace_block(args.readme, text, "ceiling")
    return 0


if __name__ == "__main__":
    sys.exit(main())
