"""The skeleton of docs/perf-notes.md's experiments: a shape's variants timed against each other in one process.

A probe script builds, per shape, a list of variants (a name, a zero-argument launch, the tensor it writes);
`compare` checks each against the torch reference, then times all of them and the torch baselines in
interleaved rounds (ncu_probe.time_interleaved over gemmtune.engine.retime.retime_interleaved, the sweep's
re-time: the order rotates every round, so clock drift under the power limit spreads over all of them) and
prints each one's time and its ratio to the first variant. Ratios are only meaningful within one such call.
GPU only.

    import probe
    problem, inputs, config = probe.shape("fwd:mixtral-8x7b:gate_up:4096:BLOCK_SIZE_M=128,...")
    shipped = Launcher(problem, inputs, config)
    probe.compare(problem, inputs, [("shipped", shipped, shipped.out), ...], rounds=6)
"""

from __future__ import annotations

from typing import Callable

import torch

from ncu_probe import device_header, model_problem, time_interleaved
from sass_report import parse_config


def header() -> str:
    """The device and versions, the first line of every probe's output (ncu_probe.device_header)."""
    return device_header()


def problem_and_config(spec: str, routing: str = "uniform"):
    """(problem, config) from 'mode:model:gemm:tokens:config' under `routing` (gemmtune.routing.make_routing's
    spec: uniform, balanced, zipf:S or a file), config as sass_report.parse_config reads it ('field=value,...'
    over the mode's defaults). Raises StopIteration on a gemm the model does not have and ValueError on an
    unknown config field."""
    mode, model, gemm, tokens, text = spec.split(":", 4)
    problem = model_problem(model, gemm, int(tokens), mode, routing)
    return problem, parse_config(problem, text)


def shape(spec: str, routing: str = "uniform"):
    """(problem, inputs on the GPU, config): problem_and_config's, with the problem's inputs made once."""
    from gemmtune.problem import make_inputs

    problem, config = problem_and_config(spec, routing)
    return problem, make_inputs(problem, "cuda"), config


def compare(problem, inputs, variants: list[tuple[str, Callable[[], torch.Tensor], torch.Tensor]], rounds: int,
            torch_baselines: bool = True) -> list[dict]:
    """Check every variant (name, launch, the tensor launch writes) against the reference, then time them and,
    with torch_baselines, torch's (gemmtune.reference.baselines) in `rounds` interleaved rounds
    (ncu_probe.time_interleaved). Prints one line per check and per timing, ratios against the first variant
    (its time over this one's: above 1 is faster). Returns the timing summaries in the printed order; a
    variant whose check fails is still timed, and its line says so."""
    from gemmtune.reference import baselines, reference
    from gemmtune.runner import check_output

    ref = reference(problem, inputs)
    named = []
    for name, launch, out in variants:
        checked = check_output(launch, out, ref, problem.dtype)
        print(f"  {name}: check {checked.status} (rel err {checked.rel_err:.2e})", flush=True)
        named.append((name if checked.status == "ok" else f"{name} [WRONG]", launch))
    del ref
    if torch_baselines:
        named += list(baselines(problem, inputs).items())
    print(problem.describe(), flush=True)
    return time_interleaved(problem, named, rounds, ratios=True)
