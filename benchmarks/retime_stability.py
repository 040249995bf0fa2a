"""How stable is the sweep's re-time? Repeat it on one model GEMM under several budgets, in one process (GPU only).

    python benchmarks/retime_stability.py --model mixtral-8x7b --gemm gate_up --tokens 16384 \\
        --results results/h200/mixtral-8x7b_fwd_M4096-16384_uniform_bf16.parquet --top 8 --repeats 3 \\
        --budget "sweep:rounds=3,rep_ms=20" --budget "floor:rounds=5,rep_ms=20,min_samples=5"

The candidates are the `--top` fastest ok configs of that problem in a results file (re-timed rows first, then
screened ones), checked once against the torch reference. Each repeat runs gemmtune.engine.retime's
retime_interleaved over the candidates and the torch baselines once per budget, the budgets alternating, and
prints the config it would pick, that pick's speedup over the faster baseline of the same rounds, and how
long the re-time took. The summary pools each config's medians of every repeat and budget into one median
(the best estimate this process has) and gives each budget's picks their regret against it: the pooled time
of the config picked over the pooled time of the pooled best. A budget is 'name:key=value,...' over rounds,
warmup_ms (default 5), rep_ms and min_samples (default 1). --json writes every repeat's medians and sample counts.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import gemmtune  # noqa: F401  (first: settles the backend before the kernels load)
from ncu_probe import add_problem_arguments, check_configs, problem_on_gpu


def parse_budget(text: str) -> tuple[str, dict]:
    """('name', {rounds, warmup_ms, rep_ms, min_samples}) from 'name:rounds=3,rep_ms=20'; ValueError if malformed."""
    name, sep, body = text.partition(":")
    if not sep or not name:
        raise ValueError(f"a budget is 'name:key=value,...', got {text!r}")
    budget = {"warmup_ms": 5, "min_samples": 1}
    for item in filter(None, body.split(",")):
        key, _, value = item.partition("=")
        if key not in ("rounds", "warmup_ms", "rep_ms", "min_samples"):
            raise ValueError(f"unknown budget key {key!r} in {text!r}")
        budget[key] = int(value)
    if "rounds" not in budget or "rep_ms" not in budget:
        raise ValueError(f"a budget needs rounds and rep_ms, got {text!r}")
    return name, budget


def candidates(path: str, problem, top: int) -> list:
    """The `top` fastest ok configs of `problem` in a results file, re-timed rows first (results.ranked_ok)."""
    from gemmtune.config import config_from_dict
    from gemmtune.results import ranked_ok, read_results

    df, _ = read_results(path)
    rows = df[(df["mode"] == problem.mode) & (df["gemm"] == problem.gemm) & (df["M"] == problem.M)]
    return [config_from_dict(problem.mode, row) for row in ranked_ok(rows).head(top).to_dict("records")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_problem_arguments(parser, configs=False)
    parser.add_argument("--results", required=True, help="a results file holding this problem's sweep")
    parser.add_argument("--top", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--budget", action="append", required=True)
    parser.add_argument("--json", help="write every repeat's picks, medians and sample counts here")
    args = parser.parse_args(argv)
    try:
        budgets = [parse_budget(text) for text in args.budget]
    except ValueError as exc:
        parser.error(str(exc))

    from gemmtune.engine.retime import retime_interleaved
    from gemmtune.kernels import Launcher
    from gemmtune.reference import baselines

    problem, inputs = problem_on_gpu(args)
    configs = candidates(args.results, problem, args.top)
    if not configs:
        parser.error(f"no ok config of {problem.describe()} in {args.results}")
    launchers = [Launcher(problem, inputs, config) for config in configs]
    check_configs(problem, inputs, configs, launchers)
    torch_fns = baselines(problem, inputs)
    names = [config.to_string() for config in configs] + list(torch_fns)
    fns = launchers + list(torch_fns.values())
    n_configs = len(configs)

    repeats = []
    for repeat in range(args.repeats):
        for name, budget in budgets:
            start = time.perf_counter()
            timings = retime_interleaved(fns, "do_bench", budget["rounds"], budget["warmup_ms"], budget["rep_ms"],
                                         budget["min_samples"])
            seconds = time.perf_counter() - start
            medians = [t.get("median_ms") for t in timings]
            ok = [i for i in range(n_configs) if medians[i] is not None]
            if not ok:
                print(f"repeat {repeat} {name}: every config failed: {timings[0].get('error')}", flush=True)
                continue
            pick = min(ok, key=lambda i: medians[i])
            torch_ms = min(m for m in medians[n_configs:] if m is not None)
            repeats.append({"repeat": repeat, "budget": name, "seconds": seconds, "pick": names[pick],
                            "speedup": torch_ms / medians[pick], "medians": dict(zip(names, medians)),
                            "samples": {n: t.get("samples") for n, t in zip(names, timings)}})
            print(f"repeat {repeat} {name:10s} {seconds:6.1f} s  pick {names[pick]:70s} "
                  f"{medians[pick]:.4f} ms, {torch_ms / medians[pick]:.3f}x best torch "
                  f"({min(t.get('samples', 0) for t in timings)}-{max(t.get('samples', 0) for t in timings)} "
                  f"samples each)", flush=True)

    # Pooled estimate: the median of each config's per-repeat medians over every budget and repeat.
    pooled = {n: statistics.median(r["medians"][n] for r in repeats if r["medians"][n] is not None)
              for n in names[:n_configs] if any(r["medians"][n] is not None for r in repeats)}
    if not pooled:
        return 1
    best = min(pooled, key=pooled.get)
    print(f"\npooled best {best} {pooled[best]:.4f} ms")
    for n in sorted(pooled, key=pooled.get):
        print(f"  {pooled[n] / pooled[best]:.4f}  {n}")
    summary = {}
    for name, _ in budgets:
        picks = [r for r in repeats if r["budget"] == name]
        if not picks:
            continue
        regrets = [pooled[r["pick"]] / pooled[best] - 1 for r in picks]
        speedups = [r["speedup"] for r in picks]
        summary[name] = {"distinct_picks": len({r["pick"] for r in picks}), "max_regret": max(regrets),
                         "mean_regret": statistics.mean(regrets), "speedup_min": min(speedups),
                         "speedup_max": max(speedups), "seconds": statistics.mean(r["seconds"] for r in picks)}
        s = summary[name]
        print(f"{name:10s} picks {s['distinct_picks']} distinct, regret mean {100 * s['mean_regret']:.2f} % max "
              f"{100 * s['max_regret']:.2f} %, speedup {s['speedup_min']:.3f}-{s['speedup_max']:.3f}, "
              f"{s['seconds']:.1f} s per re-time")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"problem": problem.describe(), "budgets": dict(budgets), "repeats": repeats,
                       "pooled_ms": pooled, "summary": summary}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
