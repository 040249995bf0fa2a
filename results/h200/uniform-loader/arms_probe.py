"""Probe (docs/perf-notes.md, entry 58): the same config on other versions of the Gluon kernel modules, in one process.

Each arm is a folder holding a version of gemmtune/kernels/fwd_ws.py and dw_ws.py (the README names the commit
each comes from); the arm "tree" is the installed package's own. A variant launches through the package's
Launcher with `fwd_ws.launch_ws` and `dw_ws.launch_dw_ws` swapped for the arm's, so every arm runs the same
wrapper code on the same inputs; only the Gluon kernels differ. Each variant is checked against the torch
reference, then all are timed with the torch baselines in interleaved rounds (benchmarks/probe.py).

    bash results/h200/uniform-loader/make_arms.sh  # arms/base (cec0bb7's modules), arms/loader (99185d6's)
    PYTHONPATH=benchmarks python results/h200/uniform-loader/arms_probe.py \\
        --arm base=results/h200/uniform-loader/arms/base \\
        --shape "fwd:mixtral-8x7b:gate_up:4096:BLOCK_SIZE_M=128,...;=config of a plain kernel, timed once"
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import gemmtune  # noqa: F401  (first: settles the backend before Triton loads)
import probe

from gemmtune.kernels import Launcher, dw_ws, fwd_ws
from sass_report import parse_config

SHIPPED = {"launch_ws": fwd_ws.launch_ws, "launch_dw_ws": dw_ws.launch_dw_ws}


def load_arm(name: str, folder: Path) -> dict:
    """The launch functions of the arm's fwd_ws.py and dw_ws.py, each loaded as a module of its own."""
    found = {}
    for stem, function in (("fwd_ws", "launch_ws"), ("dw_ws", "launch_dw_ws")):
        spec = importlib.util.spec_from_file_location(f"arm_{name}_{stem}", folder / f"{stem}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        found[function] = getattr(module, function)
    return found


def on_arm(launcher, functions: dict):
    """launcher, launched with the package's Gluon launch functions swapped for `functions`."""

    def launch():
        fwd_ws.launch_ws = functions["launch_ws"]
        dw_ws.launch_dw_ws = functions["launch_dw_ws"]
        try:
            return launcher()
        finally:
            fwd_ws.launch_ws, dw_ws.launch_dw_ws = SHIPPED["launch_ws"], SHIPPED["launch_dw_ws"]

    return launch


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arm", action="append", default=[], help="name=folder with fwd_ws.py and dw_ws.py")
    parser.add_argument("--shape", action="append", default=[],
                        help="mode:model:gemm:tokens:config[;config...]: each config on every arm ('=config': once)")
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    arms = [(name, load_arm(name, Path(folder))) for name, _, folder in (a.partition("=") for a in args.arm)]
    arms.append(("tree", SHIPPED))
    print(probe.header(), flush=True)
    for spec in args.shape:
        head, _, configs = spec.rpartition(":")
        problem, inputs, _ = probe.shape(f"{head}:")
        variants = []
        for text in configs.split(";"):
            config = parse_config(problem, text.lstrip("="))
            if text.startswith("="):
                launcher = Launcher(problem, inputs, config)
                variants.append((config.to_string(), launcher, launcher.out))
                continue
            for name, functions in arms:
                launcher = Launcher(problem, inputs, config)
                variants.append((f"{config.to_string()} [{name}]", on_arm(launcher, functions), launcher.out))
        probe.compare(problem, inputs, variants, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
