"""Two-stage timing: a short screen of every config, then the top k re-timed interleaved.

Screen: each config once, by a short do_bench (or do_bench_cudagraph), in the GPU worker right after its
correctness check, against the torch baselines timed when the worker set the problem up. Re-time: the k
fastest `ok` configs of a problem and the torch baselines, on one GPU, in `rounds` rounds; each round times
every one of them once (do_bench with the L2 cache flushed before every launch), in an order rotated by one
per round, so that clock and thermal drift spread over all of them instead of favouring whichever ran first;
after the first round each one's rep grows to about min_samples timed launches (a long GEMM would get one).
A config's samples of all rounds give its median, p20/p80 and spread = IQR / median, and its speedup is
against the baselines' medians of the same rounds. (On the H200 the SM clock under these GEMMs moved
between about 1.4 and 1.5 GHz, and one config's time by 1-6 % between the start and the end of one process:
results/h200/merged-tail/probe-bm256/timings.txt, Nsight Compute in probe-bm128/.)
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

# Budgets in milliseconds (do_bench's warmup and rep) for each stage, and the re-time rounds.
# The screen only has to put the best configs into the top k; on the H200 a screen of warmup 1 / rep 5 ms
# chose the same best as one of 5 / 20 ms, with about half the GPU worker's screening time
# (results/h200/engine_budgets.json).
SCREEN = {"warmup_ms": 1, "rep_ms": 5}
# Re-time rounds: do_bench's own defaults (warmup 25 ms, rep 100 ms), with which ../shared/h200-anchors.md was
# measured. Alternating the two in one process, warmup 5 / rep 20 ms put the best config's ratio to the best
# torch baseline 10-13 % higher than 25 / 100 ms did on llama4-scout's two 4096-token shapes (its own time 7-8 %
# lower, torch's 1-4 % higher), and within 2 % on qwen3's and mixtral's gate_up at 16384 tokens
# (docs/perf-notes.md, entry 45; results/h200/retime-budget/). Rep grows to about 5 timed launches per round
# where 100 ms holds fewer (round_rep_ms): under rep 20 ms alone a GEMM of 12-14 ms got one sample per round,
# and 3 re-times of the same 8 configs picked 2 different configs (results/h200/retime-floor/).
RETIME = {"rounds": 5, "warmup_ms": 25, "rep_ms": 100, "min_samples": 5}
# do_bench_cudagraph replays a whole graph 10 times per call: smaller budgets buy the same sample count.
SCREEN_CUDAGRAPH = {"warmup_ms": 0, "rep_ms": 5}
RETIME_CUDAGRAPH = {"rounds": 5, "warmup_ms": 0, "rep_ms": 20}


# The interpreter's "timing" is one wall-clock call; three rounds give a median and a spread.
RETIME_INTERPRETER = {"rounds": 3, "warmup_ms": 0, "rep_ms": 0}


def stage_budgets(timing: str, screen: dict | None = None, retime: dict | None = None) -> tuple[dict, dict]:
    """(screen, retime) budgets for a timing method; `screen` / `retime` replace the defaults' keys given."""
    default_screen, default_retime = _default_budgets(timing)
    return {**default_screen, **(screen or {})}, {**default_retime, **(retime or {})}


def _default_budgets(timing: str) -> tuple[dict, dict]:
    if timing == "cudagraph":
        return SCREEN_CUDAGRAPH, RETIME_CUDAGRAPH
    if timing == "interpreter":
        return SCREEN, RETIME_INTERPRETER
    return SCREEN, RETIME


def describe(timing: str, top: int, screen: dict, retime: dict) -> dict:
    """The two stages (budgets as from stage_budgets) in words, for the results metadata."""

    def bench(budget: dict) -> str:
        if timing == "interpreter":
            return "Triton-interpreter wall clock of one call after a warm-up call"
        if timing == "cudagraph":
            return f"triton.testing.do_bench_cudagraph, rep {budget['rep_ms']} ms"
        floor = budget.get("min_samples", 1)
        grown = f" (after the first round, enough for about {floor} launches)" if floor > 1 else ""
        return (f"triton.testing.do_bench (L2 flushed before each launch), warmup {budget['warmup_ms']} ms, "
                f"rep {budget['rep_ms']} ms{grown}")

    return {
        "screen": f"every config: {bench(screen)}; median, p20, p80",
        "retime": (
            f"top {top} ok configs per problem and the torch baselines, on one worker, {retime['rounds']} interleaved "
            f"rounds (order rotated each round) of {bench(retime)}; median, p20, p80 of all samples; speedup against "
            f"the baselines of the same rounds" if top > 0 else "none (--retime-top 0)"
        ),
        "spread": "(p75 - p25) / median of the re-timed samples",
    }


def quantile(values: list[float], q: float) -> float:
    """Linear-interpolated quantile q in [0, 1] of `values` (numpy.quantile's default method); NaN when empty."""
    return float(np.quantile(values, q)) if len(values) else math.nan


def summarize(samples: list[float]) -> dict:
    """median_ms, p20_ms, p80_ms, spread (IQR / median) and the sample count of `samples` (milliseconds)."""
    median = quantile(samples, 0.5)
    iqr = quantile(samples, 0.75) - quantile(samples, 0.25)
    return {
        "median_ms": median,
        "p20_ms": quantile(samples, 0.2),
        "p80_ms": quantile(samples, 0.8),
        "spread": iqr / median if median else math.nan,
        "samples": len(samples),
    }


def round_rep_ms(method: str, rep_ms: int, min_samples: int, samples: list[float]) -> int:
    """do_bench's rep (ms) for a launcher's next round: rep_ms, or enough for about min_samples timed launches
    where its median so far says rep_ms buys fewer. do_bench times int(rep / estimate) launches, its estimate
    being the mean of 5 launches with the L2 flush before each; the 10 % margin covers that flush. Only
    do_bench takes its sample count from rep; the other methods keep rep_ms."""
    if method != "do_bench" or min_samples <= 1 or not samples:
        return rep_ms
    return max(rep_ms, math.ceil(1.1 * min_samples * quantile(samples, 0.5)))


def retime_interleaved(
    launchers: list[Callable[[], object]], method: str, rounds: int, warmup_ms: int, rep_ms: int,
    min_samples: int = 1,
) -> list[dict]:
    """Time each launcher in `rounds` interleaved rounds; a summary dict per launcher, or {"error": ...}.

    From the second round on, a launcher's rep grows to about min_samples timed launches per round
    (round_rep_ms): otherwise a GEMM longer than rep_ms gets one sample per round, its median then resting on
    `rounds` samples. A launcher that raises keeps its error and is left out of later rounds; the others go on.
    """
    from gemmtune.runner import classify, time_samples

    samples: list[list[float]] = [[] for _ in launchers]
    errors: dict[int, str] = {}
    n = len(launchers)
    for r in range(rounds):
        for j in range(n):
            i = (j + r) % n
            if i in errors:
                continue
            try:
                rep = round_rep_ms(method, rep_ms, min_samples, samples[i])
                samples[i].extend(time_samples(launchers[i], method, warmup_ms, rep))
            except Exception as exc:  # noqa: BLE001  (the config's error, reported per config)
                errors[i] = classify(exc)[1]
    return [{"error": errors[i]} if i in errors else summarize(samples[i]) for i in range(n)]


def retime_do_bench(launchers: list[Callable[[], object]], rounds: int) -> list[dict]:
    """retime_interleaved by do_bench at the sweep's re-time budget (RETIME: warmup, rep and min_samples), for
    benchmarks that time launchers beside a sweep's configs the way its re-time does."""
    return retime_interleaved(launchers, "do_bench", rounds, RETIME["warmup_ms"], RETIME["rep_ms"],
                              RETIME["min_samples"])


def top_k(rows: list[dict], k: int) -> list[dict]:
    """The k fastest rows with status ok and a time (rows as KernelResult.to_dict()), fastest first."""
    ok = [r for r in rows if r.get("status") == "ok" and r.get("triton_time_ms") is not None]
    return sorted(ok, key=lambda r: r["triton_time_ms"])[: max(k, 0)]
