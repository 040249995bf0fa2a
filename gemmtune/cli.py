"""The `gemmtune` command line. Each command parses its options, calls the library, and prints.

Bad input (a malformed shape, an unknown mode, space or preset, a missing or corrupt file) prints one red
line and exits with code 2, without a traceback and without writing anything.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from gemmtune import __version__

app = typer.Typer(
    name="gemmtune",
    help="Tune the Triton grouped-GEMM kernels of Mixture-of-Experts layers: fwd, dX and dW.",
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
    no_args_is_help=True,
    add_completion=False,
)
console = Console()
err_console = Console(stderr=True)

RESULTS_DIR = Path("results")
PROBLEM_PANEL = "Problem"
SPACE_PANEL = "Config space"
OUTPUT_PANEL = "Output"


class Permute(str, Enum):
    none = "none"
    x = "x"
    y = "y"


class DType(str, Enum):
    bf16 = "bf16"
    fp16 = "fp16"
    fp32 = "fp32"


def fail(message: str) -> None:
    """One red line on stderr, exit code 2."""
    err_console.print(f"[red]error:[/red] {message}", highlight=False)
    raise typer.Exit(2)


@contextmanager
def user_errors():
    """Turn the library's input errors (all ValueError subclasses) into one line and exit code 2."""
    try:
        yield
    except ValueError as exc:
        fail(str(exc))


def _version(value: bool):
    if value:
        console.print(f"gemmtune {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        Optional[bool], typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = None,
):
    """Tune the Triton grouped-GEMM kernels of Mixture-of-Experts layers: fwd, dX and dW."""


def _overrides(**lists: Optional[str]) -> dict[str, list[int]]:
    from gemmtune.space import parse_int_list

    names = {
        "block_m": "BLOCK_SIZE_M",
        "block_n": "BLOCK_SIZE_N",
        "block_k": "BLOCK_SIZE_K",
        "group_m": "GROUP_SIZE_M",
        "num_warps": "num_warps",
        "num_stages": "num_stages",
        "split_m": "SPLIT_M",
    }
    return {names[k]: parse_int_list(v, k.replace("_", "-")) for k, v in lists.items() if v}


def default_name(problems, model: str | None = None) -> str:
    """A results file name: the model (or the shape), mode(s), token counts, routing, dtype."""
    p = problems[0]
    modes = "-".join(dict.fromkeys(q.mode for q in problems))
    routing = Path(p.routing).stem if p.routing.endswith((".pt", ".npy")) else p.routing.replace(":", "")
    if model:
        tokens = "-".join(str(m) for m in dict.fromkeys(q.M for q in problems))
        return f"{model}_{modes}_M{tokens}_{routing}_{p.dtype}"
    return f"{modes}_E{p.E}_M{p.M}_N{p.N}_K{p.K}_topk{p.topk}_perm-{p.permute}_{routing}_{p.dtype}"


ENGINE_PANEL = "Engine"


class EngineKind(str, Enum):
    parallel = "parallel"
    serial = "serial"


class TimingMethod(str, Enum):
    do_bench = "do_bench"
    cudagraph = "cudagraph"


@app.command()
def sweep(
    mode: Annotated[str, typer.Option("--mode", help="fwd, dx, dw, or a comma list (fwd,dx,dw).", rich_help_panel=PROBLEM_PANEL)] = "fwd",
    shape: Annotated[str, typer.Option("--shape", help="E,M,N,K: experts, tokens, output size, reduction size.", rich_help_panel=PROBLEM_PANEL)] = "",
    model: Annotated[Optional[str], typer.Option("--model", help="A model preset (see `gemmtune models`) or TOML file: both GEMMs of its MoE layer.", rich_help_panel=PROBLEM_PANEL)] = None,
    tokens: Annotated[str, typer.Option("--tokens", help="Token counts M for --model, e.g. 512,4096,16384.", rich_help_panel=PROBLEM_PANEL)] = "4096",
    topk: Annotated[int, typer.Option("--topk", min=1, help="Experts per token; the GEMM has M·topk rows.", rich_help_panel=PROBLEM_PANEL)] = 1,
    permute: Annotated[Permute, typer.Option("--permute", help="x: gather X rows on load (gate_up); y: scatter Y rows on store (down).", rich_help_panel=PROBLEM_PANEL)] = Permute.none,
    dtype: Annotated[DType, typer.Option("--dtype", help="Input and output dtype (fp32 accumulation).", rich_help_panel=PROBLEM_PANEL)] = DType.bf16,
    routing: Annotated[str, typer.Option("--routing", help="uniform | balanced | zipf:S | FILE (.pt/.npy topk_ids or m_sizes).", rich_help_panel=PROBLEM_PANEL)] = "uniform",
    seed: Annotated[int, typer.Option("--seed", help="Seed of routing and inputs.", rich_help_panel=PROBLEM_PANEL)] = 0,
    space: Annotated[str, typer.Option("--space", help="Space preset (quick, focused, default, exhaustive: configs/*.toml) or a TOML file.", rich_help_panel=SPACE_PANEL)] = "default",
    gpu: Annotated[Optional[str], typer.Option("--gpu", help="Prune against a GPU preset (h100, h200, a100, …) instead of the active GPU.", rich_help_panel=SPACE_PANEL)] = None,
    block_m: Annotated[Optional[str], typer.Option("--block-m", help="BLOCK_SIZE_M values, e.g. 64,128.", rich_help_panel=SPACE_PANEL)] = None,
    block_n: Annotated[Optional[str], typer.Option("--block-n", help="BLOCK_SIZE_N values.", rich_help_panel=SPACE_PANEL)] = None,
    block_k: Annotated[Optional[str], typer.Option("--block-k", help="BLOCK_SIZE_K values.", rich_help_panel=SPACE_PANEL)] = None,
    group_m: Annotated[Optional[str], typer.Option("--group-m", help="GROUP_SIZE_M values.", rich_help_panel=SPACE_PANEL)] = None,
    num_warps: Annotated[Optional[str], typer.Option("--num-warps", help="num_warps values.", rich_help_panel=SPACE_PANEL)] = None,
    num_stages: Annotated[Optional[str], typer.Option("--num-stages", help="num_stages values.", rich_help_panel=SPACE_PANEL)] = None,
    split_m: Annotated[Optional[str], typer.Option("--split-m", help="SPLIT_M values (dW).", rich_help_panel=SPACE_PANEL)] = None,
    out: Annotated[Path, typer.Option("--out", help="Folder for <name>.parquet and <name>.csv.", rich_help_panel=OUTPUT_PANEL)] = RESULTS_DIR,
    name: Annotated[Optional[str], typer.Option("--name", help="Results file name (default: from mode and shape).", rich_help_panel=OUTPUT_PANEL)] = None,
    top: Annotated[int, typer.Option("--top", min=1, help="Rows of the ranked table per problem.", rich_help_panel=OUTPUT_PANEL)] = 10,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Print the space, what each rule pruned, and what would run; run nothing.", rich_help_panel=OUTPUT_PANEL)] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.", rich_help_panel=OUTPUT_PANEL)] = False,
    engine: Annotated[EngineKind, typer.Option("--engine", help="parallel: compile in a process pool, time in one isolated worker per GPU, journal every result; serial: compile and time each config in turn in this process.", rich_help_panel=ENGINE_PANEL)] = EngineKind.parallel,
    gpus: Annotated[Optional[str], typer.Option("--gpus", help="GPU indices to time on, one worker each, e.g. 0,1 (default: all visible; one CPU worker on the interpreter).", rich_help_panel=ENGINE_PANEL)] = None,
    workers: Annotated[Optional[int], typer.Option("--workers", min=1, help="Compile processes (default: one per CPU core).", rich_help_panel=ENGINE_PANEL)] = None,
    config_timeout: Annotated[float, typer.Option("--config-timeout", min=0.001, help="Seconds one config may take to compile, or to check and screen, before it is marked timeout and its worker is replaced.", rich_help_panel=ENGINE_PANEL)] = 60.0,
    retime_top: Annotated[int, typer.Option("--retime-top", min=0, help="Re-time the k fastest configs per problem, interleaved, with more repetitions (0: screen only).", rich_help_panel=ENGINE_PANEL)] = 10,
    timing: Annotated[TimingMethod, typer.Option("--timing", help="do_bench: L2 flushed before each launch; cudagraph: do_bench_cudagraph, for small launch-bound problems.", rich_help_panel=ENGINE_PANEL)] = TimingMethod.do_bench,
    resume: Annotated[Optional[bool], typer.Option("--resume/--no-resume", help="Pick up <name>.journal.jsonl and run only what it lacks (default: when it exists and matches); --no-resume starts over, keeping the old journal as .old.", rich_help_panel=ENGINE_PANEL)] = None,
):
    """Enumerate, prune, run, check, time and rank the configs of one grouped GEMM; write Parquet + CSV."""
    from gemmtune.config import parse_modes
    from gemmtune.device import resolve_device
    from gemmtune.models import layer_problems, load_model, parse_tokens
    from gemmtune.problem import Problem, ProblemError, parse_shape
    from gemmtune.space import load_space
    from gemmtune.backend import select_backend
    from gemmtune.sweep import plan_sweep

    with user_errors():
        modes = parse_modes(mode)
        if bool(shape) == bool(model):
            raise ProblemError("give exactly one of --shape E,M,N,K and --model NAME")
        if model:
            preset = load_model(model)
            problems = layer_problems(preset, parse_tokens(tokens), modes, dtype.value, routing, seed)
        else:
            E, M, N, K = parse_shape(shape)
            problems = [Problem(m, E, M, N, K, topk, dtype.value, permute.value, routing, seed) for m in modes]
        problems[0].make_routing()  # a bad --routing fails here, before any work
        search_space = load_space(space).with_overrides(
            _overrides(block_m=block_m, block_n=block_n, block_k=block_k, group_m=group_m,
                       num_warps=num_warps, num_stages=num_stages, split_m=split_m)
        )
        from gemmtune.engine import EngineOptions, parse_gpus

        options = EngineOptions(
            gpus=parse_gpus(gpus) if gpus else None, workers=workers, config_timeout_s=config_timeout,
            retime_top=retime_top, timing=timing.value, resume=resume,
        )
        backend = "planning" if dry_run else select_backend()
        device = resolve_device(gpu if gpu or backend != "interpreter" else "h100")
        plan = plan_sweep(problems, search_space, device)

    from gemmtune import report

    if dry_run:
        console.print(report.plan_table(plan))
        by_rule = ", ".join(f"{rule} {n}" for rule, n in plan.counts_by_rule().items())
        console.print(f"{plan.to_run} of {plan.total} configs would run; pruned by rule: {by_rule or 'none'}.")
        return
    if backend == "interpreter":
        console.print(
            f"[yellow]No CUDA GPU: running on the Triton CPU interpreter, pruning against the {device.name} preset; "
            "times are interpreter wall-clock, not GPU speed.[/yellow]"
        )
    _run_and_write(plan, backend, out, name or default_name(problems, preset.name if model else None), top, quiet, engine.value, options)


def _run_and_write(plan, backend: str, out: Path, name: str, top: int, quiet: bool, engine: str, options) -> None:
    from gemmtune import report
    from gemmtune.progress import SweepProgress
    from gemmtune.results import write_results
    from gemmtune.sweep import run_sweep

    if engine == "serial":
        with SweepProgress(plan.to_run, console, disable=quiet) as progress:
            results = run_sweep(plan, backend, on_result=progress.update)
    else:
        results = _run_engine(plan, backend, out, name, quiet, options)
    parquet, csv = write_results(results, out, name)
    _print_results(results.to_dataframe(), top)
    console.print(f"wrote {parquet} and {csv}")


def _run_engine(plan, backend: str, out: Path, name: str, quiet: bool, options):
    """The parallel engine with a progress bar; Ctrl-C exits 130 and a journal of another sweep exits 2."""
    from gemmtune.engine import EngineError, SweepInterrupted, journal_path, run_engine
    from gemmtune.progress import SweepProgress

    journal = journal_path(out, name)
    try:
        with user_errors(), SweepProgress(plan.to_run, console, disable=quiet) as progress:
            results = run_engine(plan, backend, journal, options, progress)
    except SweepInterrupted as exc:
        err_console.print(
            f"[yellow]interrupted:[/yellow] {exc.done} of {exc.total} configs finished and kept in {exc.journal}; "
            "run the same command again to resume.", highlight=False,
        )
        raise typer.Exit(130) from None
    except EngineError as exc:
        err_console.print(f"[red]error:[/red] {exc} (finished configs are kept in {journal})", highlight=False)
        raise typer.Exit(1) from None
    if results.metadata.get("resumed_configs"):
        console.print(f"{results.metadata['resumed_configs']} of {plan.to_run} configs taken from {journal}", highlight=False)
    return results


def _print_results(df, top: int) -> None:
    from gemmtune import report

    for title, rows in report.problems(df):
        console.print(report.ranked_table(rows, title, top))
        console.print(report.summary(rows), highlight=False, markup=False)
        failures = report.failures_table(rows)
        if failures is not None:
            console.print(failures)


@app.command()
def show(
    file: Annotated[Path, typer.Argument(help="A results .parquet file.")],
    top: Annotated[int, typer.Option("--top", min=1, help="Rows per problem.")] = 20,
):
    """Print a results file as ranked tables per problem, with its metadata."""
    from gemmtune import report
    from gemmtune.results import read_results

    with user_errors():
        df, meta = read_results(file)
    console.print(report.metadata_table(meta))
    _print_results(df, top)


class BestBy(str, Enum):
    M = "M"


@app.command()
def best(
    files: Annotated[Optional[list[Path]], typer.Argument(help="Results .parquet files (default: the newest under results/).")] = None,
    top: Annotated[int, typer.Option("--top", min=1, help="Configs per problem.")] = 10,
    by: Annotated[Optional[BestBy], typer.Option("--by", help="M: one table of the best config per (mode, gemm, M), with TF/s and speedup.")] = None,
):
    """The best `ok` configs of one or more results files, ranked per problem (mode, gemm, shape)."""
    import pandas as pd

    from gemmtune import report
    from gemmtune.results import newest_results, read_results

    with user_errors():
        paths = files or [newest_results(RESULTS_DIR)]
        frames = [read_results(path)[0].assign(file=str(path)) for path in paths]
    df = pd.concat(frames, ignore_index=True)
    if not (df["status"] == "ok").any():
        fail(f"no config ran correctly in {', '.join(map(str, paths))}")
    if by is BestBy.M:
        from gemmtune.results import best_per_problem

        console.print(report.best_by_m_table(best_per_problem(df)))
        return
    for title, rows in report.problems(df):
        console.print(report.ranked_table(rows, title, top))


@app.command()
def models(
    names: Annotated[Optional[list[str]], typer.Argument(help="Presets or model TOML files to check and show (default: every preset).")] = None,
):
    """List the model presets (configs/models/*.toml), or check and show your own model TOML files."""
    from gemmtune import report
    from gemmtune.models import all_presets, load_model

    with user_errors():
        presets = [load_model(name) for name in names] if names else all_presets()
    console.print(report.models_table(presets))


TOLERANCE_HELP = "Ship configs within this fraction of each M's best time (0.05 = 5 %)."


@app.command()
def regret(
    file: Annotated[Path, typer.Argument(help="A results .parquet file with several token counts M.")],
    tolerance: Annotated[float, typer.Option("--tolerance", min=0.0, help=TOLERANCE_HELP)] = 0.05,
    measure: Annotated[bool, typer.Option("--measure/--no-measure", help="Time configs the file lacks at an M (on this machine's backend); --no-measure uses recorded times only.")] = True,
):
    """How much slower each M's best config is at the other Ms, and the fewest configs to ship."""
    from gemmtune import report
    from gemmtune.regret import regret_matrix
    from gemmtune.results import read_results

    with user_errors():
        df, meta = read_results(file)
        with console.status("timing configs at other token counts…") as status:
            matrices = regret_matrix(
                df, measure="backend" if measure else None, tolerance=tolerance, metadata=meta,
                on_measure=lambda p, c: status.update(f"timing {c.to_string()} at M={p.M} ({p.gemm or p.mode})…"),
            )
    for matrix in matrices:
        console.print(report.regret_table(matrix))
        console.print(report.regret_summary(matrix), highlight=False, markup=False)
    console.print("ratio = time / best time at that M; * measured now; ? not timed (pass --measure); ★ shipped")


@app.command()
def export(
    file: Annotated[Path, typer.Argument(help="A results .parquet file.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="The tuned-config JSON to write (format: gemmtune.export).")] = Path("tuned.json"),
    tolerance: Annotated[float, typer.Option("--tolerance", min=0.0, help=TOLERANCE_HELP)] = 0.05,
):
    """Write the configs to ship per (mode, gemm, E, N, K), keyed by M, to JSON for gemmtune.lookup()."""
    from gemmtune import report
    from gemmtune.export import export_file

    with user_errors():
        doc = export_file(file, out, tolerance)
    console.print(report.export_table(doc))
    if doc["backend"] == "interpreter":
        console.print("[yellow]These times come from the Triton CPU interpreter, not a GPU.[/yellow]")
    distinct = len({(e["mode"], c["config"]) for e in doc["entries"] for c in e["configs_by_M"].values()})
    console.print(f"wrote {out} ({len(doc['entries'])} entries, {distinct} distinct configs)")


@app.command()
def plot(
    file: Annotated[Path, typer.Argument(help="A results .parquet file.")],
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Folder for the PNG files (default: <file>-plots next to the file).")] = None,
    tolerance: Annotated[float, typer.Option("--tolerance", min=0.0, help=TOLERANCE_HELP)] = 0.05,
):
    """PNG figures per (mode, gemm): TF/s heatmaps over block sizes, and TF/s against M."""
    from gemmtune.plots import plot_results
    from gemmtune.results import read_results

    with user_errors():
        df, _ = read_results(file)
        paths = plot_results(df, out or file.with_name(f"{file.stem}-plots"), tolerance)
    for path in paths:
        console.print(f"wrote {path}")


@app.command()
def compare(
    file_a: Annotated[Path, typer.Argument(help="Results .parquet file A (the reference).")],
    file_b: Annotated[Path, typer.Argument(help="Results .parquet file B.")],
    top: Annotated[Optional[int], typer.Option("--top", min=1, help="Show only the N pairs whose ratio changed most.")] = None,
):
    """Two sweeps side by side: time in A, time in B and B/A per matching (problem, config)."""
    from gemmtune import report
    from gemmtune.compare import compare_results, most_changed
    from gemmtune.results import read_results

    with user_errors():
        result = compare_results(read_results(file_a)[0], read_results(file_b)[0])
    rows = most_changed(result.rows, top) if top else result.rows
    title = f"A = {file_a}  B = {file_b}" + (f" ({len(rows)} most changed of {result.matched})" if top else "")
    console.print(report.compare_table(rows, title))
    console.print(result.summary(), highlight=False)


def run() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    sys.exit(run())
