"""Regret across token counts: how much slower one M's best config is at the other Ms, and the fewest
configs to ship so that every M stays within a tolerance of its best.

A tuned kernel meets token counts it was not tuned at, and each shipped config costs a compilation. For
each problem family (mode, gemm, E, N, K, topk, dtype, permute, routing: everything but M) this module
builds the matrix

    ratio[c, M] = time of config c at M / time of the best config at M     (1.00 = the best, 1.30 = 30 % slower)

over the candidates: the config that wins at each M, plus every config the file times correctly at every M
(free to consider, nothing to run). Then it picks the smallest set of candidates such that every M has one
within `tolerance` of its best (ratio <= 1 + tolerance): a minimum set cover, exact (breadth-first search
over the covered-M bit masks) for up to EXACT_MAX_TOKENS token counts, greedy beyond. Among covers of the
smallest size the one with the lowest summed ratio wins. Each M then uses the shipped config that is
fastest there (`assignment`).

Where each time comes from (`sources`):
- recorded: the results file timed c at M (a full sweep times every kept config at every M); not re-run.
- measured: the file has no time for c at M (the sweep pruned it there, or never ran that M), so
  `measure(problem, config) -> ms | None` times it now. That ratio is taken against M's winner re-timed by
  the same function in the same run, so drift between the sweep and now cancels out.
- failed: the file records c at M as wrong or failed, or the measurement failed: ratio inf.
- unknown: no time and measure=None: ratio NaN, never counted as within the tolerance.

The default measurement (`BackendMeasure`) re-runs the config through gemmtune.runner on the current
backend (CUDA with do_bench, or the Triton CPU interpreter); it refuses to mix backends with the file's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import pandas as pd

from gemmtune.config import KernelConfig, config_from_dict
from gemmtune.problem import Problem
from gemmtune.results import (
    CONFIG_COLUMNS,
    FAMILY_COLUMNS,
    PROBLEM_COLUMNS,
    ResultsError,
    best_per_problem,
    ok_rows,
    sort_problems,
)

DEFAULT_TOLERANCE = 0.05
EXACT_MAX_TOKENS = 16
FAILED_STATUSES = ("wrong", "out_of_resources", "compile_error", "runtime_error", "crashed", "timeout")

# A measurement: the median time in ms of `config` on `problem`, or None when it fails or is wrong there.
Measure = Callable[[Problem, KernelConfig], "float | None"]


class RegretError(ValueError):
    """Regret cannot be computed: no ok rows, a bad tolerance, or a measurement on the wrong backend."""


def check_tolerance(tolerance: float) -> float:
    if not (isinstance(tolerance, (int, float)) and math.isfinite(tolerance) and tolerance >= 0):
        raise RegretError(f"--tolerance must be a number >= 0 (0.05 = within 5 % of the best), got {tolerance!r}")
    return float(tolerance)


@dataclass
class RegretMatrix:
    """One problem family's regret matrix and shipped set.

    tokens: the Ms with at least one ok config, ascending. best_ms[M]: the file's best time at M and
    winners[M] its config string. ratios / sources: DataFrames indexed by config string (candidates, winners
    first in order of M) with one column per M (see the module docstring). shipped: the smallest covering
    set, in the order chosen; assignment[M]: the shipped config that is fastest at M.
    """

    family: dict
    tokens: list[int]
    best_ms: dict[int, float]
    winners: dict[int, str]
    configs: dict[str, KernelConfig]
    ratios: pd.DataFrame
    sources: pd.DataFrame
    tolerance: float
    shipped: list[str] = field(default_factory=list)
    assignment: dict[int, str] = field(default_factory=dict)

    @property
    def title(self) -> str:
        f = self.family
        gemm = f"{f['gemm']} " if f.get("gemm") else ""
        return (
            f"{gemm}{f['mode']}  E={f['E']} N={f['N']} K={f['K']} topk={f['topk']} {f['dtype']} "
            f"permute={f['permute']} routing={f['routing']}"
        )

    @property
    def measured(self) -> int:
        """How many cells were timed now rather than read from the file."""
        return int((self.sources == "measured").to_numpy().sum())

    def shown(self) -> list[str]:
        """The rows worth printing: every M's winner, then any shipped config that wins nowhere."""
        winners = list(dict.fromkeys(self.winners[m] for m in self.tokens))
        return winners + [c for c in self.shipped if c not in winners]



def min_cover(ratios: pd.DataFrame, tolerance: float = DEFAULT_TOLERANCE) -> list[str]:
    """The fewest rows (configs) of `ratios` such that every column (M) has one with ratio <= 1 + tolerance.

    Exact for up to EXACT_MAX_TOKENS columns, greedy beyond; among smallest covers the lowest summed ratio
    over the Ms each pick newly covers. Columns no row covers are left uncovered. NaN never covers.
    """
    limit = 1 + tolerance + 1e-12
    values = ratios.to_numpy(dtype=float)
    names = list(ratios.index)
    n = values.shape[1]
    # One representative per coverage mask: the row with the lowest summed ratio over what it covers.
    reps: dict[int, tuple[float, int]] = {}
    for i, row in enumerate(values):
        mask = sum(1 << j for j in range(n) if row[j] <= limit)
        if not mask:
            continue
        cost = sum(row[j] for j in range(n) if mask >> j & 1)
        if mask not in reps or cost < reps[mask][0]:
            reps[mask] = (cost, i)
    target = 0
    for mask in reps:
        target |= mask
    if not target:
        return []

    def added_cost(i: int, bits: int) -> float:
        return sum(values[i][j] for j in range(n) if bits >> j & 1)

    if n <= EXACT_MAX_TOKENS:
        # Breadth-first over covered masks: a state first reached at level k needs exactly k configs.
        level: dict[int, tuple[float, tuple[int, ...]]] = {0: (0.0, ())}
        seen = {0}
        while target not in level:
            nxt: dict[int, tuple[float, tuple[int, ...]]] = {}
            for state, (cost, chosen) in level.items():
                for mask, (_, i) in reps.items():
                    new = state | mask
                    if new in seen:
                        continue
                    candidate = (cost + added_cost(i, mask & ~state), chosen + (i,))
                    if new not in nxt or candidate < nxt[new]:
                        nxt[new] = candidate
            seen.update(nxt)
            level = nxt
        return [names[i] for i in level[target][1]]

    chosen: list[int] = []
    covered = 0
    while covered != target:
        mask, (_, i) = max(
            reps.items(),
            key=lambda item: (bin(item[0] & ~covered).count("1"), -added_cost(item[1][1], item[0] & ~covered), -item[1][1]),
        )
        chosen.append(i)
        covered |= mask
    return [names[i] for i in chosen]


class BackendMeasure:
    """Times a config on a problem by re-running it through gemmtune.runner on the current backend.

    `file_backend` ('cuda' or 'interpreter', from the results file's metadata): measuring on another backend
    than the sweep used would mix GPU and interpreter times, so the first measurement raises RegretError.
    Inputs, references and baselines (a ProblemContext) are built once per problem; only the last is kept.
    """

    def __init__(self, file_backend: str | None = None):
        self.file_backend = file_backend
        self._context_key = None
        self._context = None

    def __call__(self, problem: Problem, config: KernelConfig) -> float | None:
        from gemmtune.backend import select_backend
        from gemmtune.runner import run_config
        from gemmtune.sweep import ProblemContext

        backend = select_backend()
        if self.file_backend and self.file_backend != backend:
            raise RegretError(
                f"the results file was timed on the {self.file_backend} backend but this machine runs on the "
                f"{backend}; measure on a machine like the sweep's, or pass --no-measure to use recorded times only"
            )
        timing = "do_bench" if backend == "cuda" else "interpreter"
        key = (problem, config.fuse_mul_post)
        if key != self._context_key:
            self._context = None  # free the previous problem's tensors first
            self._context = ProblemContext(problem, "cuda" if backend == "cuda" else "cpu", timing, {config.fuse_mul_post})
            self._context_key = key
        ctx = self._context
        result = run_config(
            problem, ctx.inputs, config, ctx.refs[config.fuse_mul_post], ctx.baseline_ms[config.fuse_mul_post], timing
        )
        return result.triton_time_ms if result.status == "ok" else None


def _config_of(row) -> KernelConfig:
    values = {k: row[k] for k in CONFIG_COLUMNS if k in row and not _missing(row[k])}
    return config_from_dict(row["mode"], values)


def _problem_of(row, M: int) -> Problem:
    values = {k: _plain(row[k]) for k in PROBLEM_COLUMNS}
    values["M"] = int(M)
    return Problem(**values)


def _missing(value) -> bool:
    return value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value))


def _plain(value):
    return value.item() if hasattr(value, "item") else value


def families(df: pd.DataFrame):
    """(family dict, rows) per problem family of the table, in mode/gemm/shape order."""
    keys = [c for c in FAMILY_COLUMNS if c in df.columns]
    order = sort_problems(df[keys].drop_duplicates(), keys)
    for _, key in order.iterrows():
        mask = (df[keys] == key[keys]).all(axis=1)
        yield {k: _plain(key[k]) for k in keys}, df[mask]


def regret_matrix(
    df: pd.DataFrame,
    measure: Measure | str | None = "backend",
    tolerance: float = DEFAULT_TOLERANCE,
    metadata: dict | None = None,
    on_measure: Callable[[Problem, KernelConfig], None] | None = None,
) -> list[RegretMatrix]:
    """One RegretMatrix per problem family of a results table (see the module docstring).

    measure: a Measure; "backend" (default) for BackendMeasure on the current backend, checked against
    metadata["backend"]; None to use recorded times only. on_measure(problem, config) is called before each
    measurement. Raises RegretError when no row ran correctly or the tolerance is bad.
    """
    tolerance = check_tolerance(tolerance)
    try:
        best = best_per_problem(df)
    except ResultsError as exc:
        raise RegretError(str(exc)) from None
    if measure == "backend":
        measure = BackendMeasure((metadata or {}).get("backend"))
    out = []
    for family, rows in families(df):
        family_best = best.merge(pd.DataFrame([family]), on=list(family))
        if family_best.empty:
            continue
        out.append(_family_matrix(family, rows, family_best, measure, tolerance, on_measure))
    return out


def _family_matrix(family, rows, family_best, measure, tolerance, on_measure) -> RegretMatrix:
    tokens = sorted(int(m) for m in family_best["M"])
    best_row = {int(r["M"]): r for _, r in family_best.iterrows()}
    best_ms = {m: float(best_row[m]["triton_time_ms"]) for m in tokens}
    winners = {m: str(best_row[m]["config"]) for m in tokens}

    # What the file says about each config at each M: a time, a failure, or nothing (pruned or not run).
    rows = rows[rows["M"].isin(tokens)]
    configs = {str(r["config"]): _config_of(r) for _, r in rows.drop_duplicates("config").iterrows()}
    failed = rows[rows["status"].isin(FAILED_STATUSES)]
    recorded: dict[tuple[str, int], float] = {(str(c), int(m)): math.inf for c, m in zip(failed["config"], failed["M"])}
    times = ok_rows(rows).groupby(["config", "M"])["triton_time_ms"].min()
    recorded.update({(str(c), int(m)): float(t) for (c, m), t in times.items()})

    everywhere = [c for c in configs if all(math.isfinite(recorded.get((c, m), math.inf)) for m in tokens)]
    candidates = list(dict.fromkeys([winners[m] for m in tokens] + everywhere))

    ratio_rows, source_rows = [], []
    pending: dict[int, list[str]] = {}
    for c in candidates:
        ratio_rows.append([])
        source_rows.append([])
        for m in tokens:
            t = recorded.get((c, m))
            if t is None:
                pending.setdefault(m, []).append(c)
            ratio_rows[-1].append(math.nan if t is None else t / best_ms[m])
            source_rows[-1].append("unknown" if t is None else "failed" if math.isinf(t) else "recorded")
    index = pd.Index(candidates, name="config")
    ratios = pd.DataFrame(ratio_rows, index=index, columns=tokens, dtype=float)
    sources = pd.DataFrame(source_rows, index=index, columns=tokens, dtype=object)

    if measure is not None:
        for m in sorted(pending):
            problem = _problem_of(best_row[m], m)

            def timed(config_string: str) -> float | None:
                if on_measure:
                    on_measure(problem, configs[config_string])
                return measure(problem, configs[config_string])

            reference = timed(winners[m]) or best_ms[m]
            for c in pending[m]:
                t = timed(c)
                if t is None:
                    ratios.at[c, m], sources.at[c, m] = math.inf, "failed"
                else:
                    ratios.at[c, m], sources.at[c, m] = t / reference, "measured"

    shipped = min_cover(ratios, tolerance)
    assignment = {}
    for m in tokens:
        finite = [c for c in shipped if not math.isnan(ratios.at[c, m])]
        assignment[m] = min(finite, key=lambda c: ratios.at[c, m]) if finite else winners[m]
    return RegretMatrix(family, tokens, best_ms, winners, configs, ratios, sources, tolerance, shipped, assignment)
