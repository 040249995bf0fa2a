"""Benchmark (GPU; not a test): the sweep engine against a serial in-process loop over the same configs.

Run on the GPU machine:

    python benchmarks/engine_vs_serial.py --out DIR [--shape 128,4096,1536,2048 --topk 8 --permute x]
                                          [--space default] [--gpus 0] [--serial-budget 200]

Default problem: qwen3-30b-a3b's gate_up GEMM at 4096 tokens (E=128, M=4096, N=1536, K=2048, topk=8, X
gathered). Both arms plan the same configs and each runs in its own fresh process with its own empty Triton
cache (TRITON_CACHE_DIR), so neither reuses the other's kernels:

- engine: gemmtune.engine.run_engine end to end (worker start-up, parallel compile, screen, re-time of the
  top 10, results read back from the journal).
- serial: gemmtune.sweep.run_problem_serial, compiling and timing each config in turn in one process, as
  Triton's autotuner does (do_bench, warmup 25 ms, rep 100 ms). If the whole space would not fit in
  --serial-budget seconds, it runs a random subset until the budget is spent and extrapolates:
  serial_s ≈ (set-up + first config) + (N − 1) × mean time of the later configs. The output says so.

Writes DIR/engine_vs_serial.json and .parquet (one row per arm: wall time, configs, extrapolation), the
engine's results DIR/engine_results.parquet, and prints one summary line. Goals: ≥ 8× faster than the serial
loop, and the whole default forward space of one shape in < 60 s on a 16-core machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="folder for the benchmark's files")
    ap.add_argument("--shape", default="128,4096,1536,2048", help="E,M,N,K")
    ap.add_argument("--topk", type=int, default=8)
    ap.add_argument("--permute", default="x", choices=["none", "x", "y"])
    ap.add_argument("--mode", default="fwd", choices=["fwd", "dx", "dw"])
    ap.add_argument("--space", default="default", help="space preset or TOML file")
    ap.add_argument("--gpus", default=None, help="GPU indices for the engine, e.g. 0,1 (default: all visible)")
    ap.add_argument("--workers", type=int, default=None, help="compile processes (default: one per core)")
    ap.add_argument("--serial-budget", type=float, default=200.0, help="seconds the serial loop may run")
    ap.add_argument("--seed", type=int, default=0, help="seed of the serial loop's random subset")
    ap.add_argument("--screen", help="engine screen budget WARMUP_MS,REP_MS (default: the engine's)")
    ap.add_argument("--retime", help="engine re-time budget ROUNDS,WARMUP_MS,REP_MS (default: the engine's)")
    ap.add_argument("--engine-only", action="store_true", help="skip the serial arm (to compare engine settings)")
    ap.add_argument("--arm", choices=["engine", "serial"], help=argparse.SUPPRESS)
    ap.add_argument("--result", type=Path, help=argparse.SUPPRESS)
    return ap.parse_args(argv)


def make_plan(args):
    from gemmtune.device import resolve_device
    from gemmtune.problem import Problem, parse_shape
    from gemmtune.space import load_space
    from gemmtune.sweep import plan_sweep

    E, M, N, K = parse_shape(args.shape)
    problem = Problem(args.mode, E, M, N, K, args.topk, "bf16", args.permute)
    return plan_sweep([problem], load_space(args.space), resolve_device(None))


def arm_engine(args) -> dict:
    from gemmtune.backend import select_backend
    from gemmtune.engine import EngineOptions, journal_path, parse_gpus, run_engine

    plan = make_plan(args)
    screen = dict(zip(("warmup_ms", "rep_ms"), map(int, args.screen.split(",")))) if args.screen else None
    retime = dict(zip(("rounds", "warmup_ms", "rep_ms"), map(int, args.retime.split(",")))) if args.retime else None
    options = EngineOptions(gpus=parse_gpus(args.gpus) if args.gpus else None, workers=args.workers, resume=False,
                            screen_budget=screen, retime_budget=retime)
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        results = run_engine(plan, select_backend(), journal_path(Path(tmp), "bench"), options)
        wall = time.perf_counter() - start
    df = results.to_dataframe()
    df.to_parquet(args.out / "engine_results.parquet")
    ok = df[df["status"] == "ok"]
    meta = results.metadata
    return {
        "arm": "engine",
        "wall_s": wall,
        "configs_total": plan.to_run,
        "configs_run": plan.to_run,
        "extrapolated": False,
        "statuses": df["status"].value_counts().to_dict(),
        "best_config": ok.iloc[0]["config"] if len(ok) else None,
        "best_ms": float(ok.iloc[0]["triton_time_ms"]) if len(ok) else None,
        "best_tflops": float(ok.iloc[0]["tflops"]) if len(ok) else None,
        "gpus": meta.get("gpus"),
        "compile_workers": meta.get("compile_workers"),
        "gpu_worker_compiles": meta.get("gpu_worker_compiles"),
        "worker_restarts": meta.get("worker_restarts"),
        "timing_method": meta.get("timing_method"),
        "engine_notes": meta.get("engine_notes"),
        "timeline_s": meta.get("timeline_s"),
        "worker_busy_s": meta.get("worker_busy_s"),
    }


class _BudgetSpent(Exception):
    pass


def arm_serial(args) -> dict:
    from gemmtune.backend import select_backend
    from gemmtune.sweep import run_problem_serial

    plan = make_plan(args)
    problem = plan.problems[0].problem
    configs = list(plan.problems[0].space.kept)
    random.Random(args.seed).shuffle(configs)  # a random subset if the budget runs out
    device = "cuda" if select_backend() == "cuda" else "cpu"
    timing = "do_bench" if device == "cuda" else "interpreter"
    stamps, results = [], []

    def on_result(result):
        stamps.append(time.perf_counter())
        results.append(result)
        if stamps[-1] - start > args.serial_budget and len(results) >= 3 and len(results) < len(configs):
            raise _BudgetSpent

    start = time.perf_counter()
    try:
        run_problem_serial(problem, configs, device, timing, on_result)
    except _BudgetSpent:
        pass
    measured = stamps[-1] - start
    n, total = len(results), len(configs)
    first = stamps[0] - start  # set-up (inputs, reference, baselines) and the first config
    per_config = (stamps[-1] - stamps[0]) / (n - 1) if n > 1 else first
    estimate = measured if n == total else first + (total - 1) * per_config
    ok = sorted((r for r in results if r.status == "ok"), key=lambda r: r.triton_time_ms)
    return {
        "arm": "serial",
        "wall_s": estimate,
        "measured_s": measured,
        "configs_total": total,
        "configs_run": n,
        "extrapolated": n < total,
        "first_config_s": first,
        "per_config_s": per_config,
        "statuses": {s: sum(r.status == s for r in results) for s in {r.status for r in results}},
        "best_config": ok[0].kernel_config.to_string() if ok else None,
        "best_ms": ok[0].triton_time_ms if ok else None,
        "best_tflops": ok[0].tflops if ok else None,
        "timing_method": "triton.testing.do_bench, warmup 25 ms, rep 100 ms (one stage)" if device == "cuda" else "interpreter",
    }


def run_arm(args, arm: str, timeout_s: float) -> dict:
    """Run one arm in a fresh process with its own empty Triton cache; returns its result dict."""
    with tempfile.TemporaryDirectory(prefix=f"triton-cache-{arm}-") as cache, tempfile.TemporaryDirectory() as tmp:
        result_file = Path(tmp) / "result.json"
        cmd = [sys.executable, __file__, *sys.argv[1:], "--arm", arm, "--result", str(result_file)]
        env = dict(os.environ, TRITON_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
        start = time.perf_counter()
        proc = subprocess.run(cmd, env=env, timeout=timeout_s, capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"{arm} arm failed (exit {proc.returncode}):\n{proc.stderr[-4000:]}")
        result = json.loads(result_file.read_text())
        result["process_s"] = time.perf_counter() - start
        return result


def environment() -> dict:
    import torch
    import triton

    from gemmtune import __version__
    from gemmtune.backend import select_backend

    cuda = select_backend() == "cuda"
    return {
        "device": torch.cuda.get_device_name() if cuda else "cpu (Triton interpreter)",
        "gpus_visible": torch.cuda.device_count() if cuda else 0,
        "cpu_count": os.cpu_count(),
        "torch_version": torch.__version__,
        "triton_version": triton.__version__,
        "gemmtune_version": __version__,
        "python_version": platform.python_version(),
        "created_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def main(argv=None) -> None:
    args = parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    import gemmtune  # noqa: F401  (backend first)

    if args.arm:
        result = arm_engine(args) if args.arm == "engine" else arm_serial(args)
        args.result.write_text(json.dumps(result, default=str))
        return

    import pandas as pd

    engine = run_arm(args, "engine", timeout_s=300)
    print(f"engine: {engine['wall_s']:.1f} s; timeline {engine['timeline_s']}; worker busy {engine['worker_busy_s']}")
    if args.engine_only:
        (args.out / "engine_only.json").write_text(json.dumps({"engine": engine, "environment": environment()},
                                                              indent=2, default=str))
        return
    serial = run_arm(args, "serial", timeout_s=args.serial_budget + 120)
    speedup = serial["wall_s"] / engine["wall_s"]
    summary = {
        "problem": f"{args.mode} E,M,N,K={args.shape} topk={args.topk} permute={args.permute} space={args.space}",
        "engine": engine,
        "serial": serial,
        "speedup": speedup,
        "goal_speedup_8x": speedup >= 8,
        "goal_engine_under_60s": engine["wall_s"] < 60,
        "environment": environment(),
    }
    (args.out / "engine_vs_serial.json").write_text(json.dumps(summary, indent=2, default=str))
    rows = [{k: (json.dumps(v, default=str) if isinstance(v, (dict, list)) else v) for k, v in arm.items()}
            for arm in (engine, serial)]
    pd.DataFrame(rows).to_parquet(args.out / "engine_vs_serial.parquet")
    how = (f"{serial['configs_run']} of {serial['configs_total']} configs (random subset) in {serial['measured_s']:.1f} s, "
           f"extrapolated to {serial['wall_s']:.1f} s" if serial["extrapolated"]
           else f"{serial['configs_total']} configs in {serial['wall_s']:.1f} s")
    print(
        f"engine: {engine['configs_total']} configs in {engine['wall_s']:.1f} s "
        f"(gpus {engine['gpus']}, {engine['compile_workers']} compile workers, "
        f"{engine['gpu_worker_compiles']} compiled on the GPU worker); serial: {how}; "
        f"speedup {speedup:.1f}x (goal >= 8x: {'yes' if speedup >= 8 else 'NO'}; "
        f"engine < 60 s: {'yes' if engine['wall_s'] < 60 else 'NO'}) on {summary['environment']['device']}"
    )


if __name__ == "__main__":
    main()
