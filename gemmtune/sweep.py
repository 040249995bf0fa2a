"""A sweep: plan (enumerate and prune per problem), then run every surviving config and collect results.

Data flows one way: problems → configs (space, pruning) → runs (runner) → KernelResults → files.
This module runs configs one after another in this process; gemmtune.engine runs the same plan with
parallel compilation and isolated GPU workers.
"""

from __future__ import annotations

import collections
import datetime as dt
import platform
import sys
from dataclasses import dataclass
from typing import Callable

from gemmtune.device import DeviceProperties
from gemmtune.problem import Problem
from gemmtune.pruning import shared_memory_bytes
from gemmtune.results import KernelResult, SweepResults
from gemmtune.space import PrunedSpace, SearchSpace, get_kernel_configs


@dataclass
class PlannedProblem:
    """One problem of a sweep with its pruned config space."""

    problem: Problem
    space: PrunedSpace


@dataclass
class SweepPlan:
    """What a sweep will run: each problem's kept configs, and every pruned config with its reason."""

    problems: list[PlannedProblem]
    space: SearchSpace
    device: DeviceProperties

    @property
    def to_run(self) -> int:
        return sum(len(p.space.kept) for p in self.problems)

    @property
    def total(self) -> int:
        return sum(p.space.total for p in self.problems)

    def counts_by_rule(self) -> dict[str, int]:
        """Configs pruned by each rule, over all problems."""
        counts = collections.Counter()
        for planned in self.problems:
            counts.update(planned.space.counts_by_rule())
        return dict(counts)

    def pruned_results(self) -> list[KernelResult]:
        """A 'pruned' row per pruned config (error = the rule's reason), so results files show the whole space."""
        return [
            KernelResult(
                planned.problem,
                p.config,
                "pruned",
                f"{p.rule}: {p.reason}",
                predicted_shared_mem_bytes=shared_memory_bytes(p.config, planned.problem.element_size),
            )
            for planned in self.problems
            for p in planned.space.pruned
        ]


class EmptySpaceError(ValueError):
    """Pruning removed every config of a problem: nothing would run."""


def plan_sweep(problems: list[Problem], space: SearchSpace, device: DeviceProperties) -> SweepPlan:
    """Enumerate and prune `space` for each problem. Raises EmptySpaceError when a problem keeps no config."""
    planned = [PlannedProblem(p, get_kernel_configs(p, device, space)) for p in problems]
    for item in planned:
        if not item.space.kept:
            counts = ", ".join(f"{rule}: {n}" for rule, n in item.space.counts_by_rule().items())
            raise EmptySpaceError(
                f"pruning left no config for {item.problem.describe()} (of {item.space.total}; {counts}); "
                "widen the space or change the problem"
            )
    return SweepPlan(planned, space, device)


def environment_metadata(plan: SweepPlan, backend: str, timing: str) -> dict:
    """The environment that goes with a results file: device, versions, timing method, problems, date."""
    import torch
    import triton

    from gemmtune import __version__
    from gemmtune.runner import TIMING_METHODS

    problems = [p.problem.to_dict() for p in plan.problems]
    meta = {
        "device_name": plan.device.name,
        "compute_capability": ".".join(map(str, plan.device.compute_capability)),
        "device": plan.device.to_dict(),
        "backend": backend,
        "interpreter": backend == "interpreter",
        "torch_version": torch.__version__,
        "triton_version": triton.__version__,
        "gemmtune_version": __version__,
        "python_version": platform.python_version(),
        "timing_method": TIMING_METHODS[timing],
        "space": plan.space.name,
        "created_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "command": " ".join(["gemmtune", *sys.argv[1:]]),
        "problems": problems,
    }
    # Single-valued problem fields also at the top level (mode, E, M, …); several values as a list.
    for key in problems[0]:
        values = list(dict.fromkeys(p[key] for p in problems))
        meta[key] = values[0] if len(values) == 1 else values
    return meta


ResultCallback = Callable[[KernelResult], None]


def run_problem_serial(problem: Problem, configs, device: str, timing: str, on_result: ResultCallback) -> None:
    """Run `configs` of one problem one after another in this process (compile, check, time each in turn).

    Inputs, references and torch baselines are built once per problem; baselines are timed by the same
    method as the kernels, on the same inputs.
    """
    from gemmtune.runner import run_config

    context = ProblemContext(problem, device, timing, {c.fuse_mul_post for c in configs})
    for config in configs:
        on_result(run_config(problem, context.inputs, config, context.refs[config.fuse_mul_post],
                             context.baseline_ms[config.fuse_mul_post], timing))


class ProblemContext:
    """Inputs, fp32 references and timed torch baselines of one problem (per fuse_mul_post variant).

    baselines[fuse] keeps the baselines' callables, for the re-time stage to time them again beside the
    best configs; baseline_ms[fuse] holds their times from here, which screened configs are compared to.
    """

    def __init__(self, problem: Problem, device: str, timing: str, fuse_variants=(False,)):
        from gemmtune.problem import make_inputs
        from gemmtune.reference import baselines, reference
        from gemmtune.runner import time_callable

        self.problem = problem
        self.inputs = make_inputs(problem, device)
        self.refs = {}
        self.baselines = {}
        self.baseline_ms = {}
        for fuse in sorted(fuse_variants):
            self.refs[fuse] = reference(problem, self.inputs, fuse)
            self.baselines[fuse] = baselines(problem, self.inputs, fuse)
            self.baseline_ms[fuse] = {name: time_callable(fn, timing).median_ms for name, fn in self.baselines[fuse].items()}


def run_sweep(
    plan: SweepPlan,
    backend: str,
    timing: str | None = None,
    on_result: ResultCallback | None = None,
) -> SweepResults:
    """Run every kept config of `plan` serially in this process; returns all results with metadata.

    backend: 'cuda' or 'interpreter' (see gemmtune.backend). timing defaults to do_bench on CUDA and
    wall-clock on the interpreter.
    """
    timing = timing or ("do_bench" if backend == "cuda" else "interpreter")
    device = "cuda" if backend == "cuda" else "cpu"
    results: list[KernelResult] = []

    def collect(result: KernelResult) -> None:
        results.append(result)
        if on_result:
            on_result(result)

    for planned in plan.problems:
        run_problem_serial(planned.problem, planned.space.kept, device, timing, collect)
    meta = environment_metadata(plan, backend, timing)
    meta["engine"] = "serial"
    return SweepResults(results + plan.pruned_results(), meta)
