"""benchmarks/ncu_probe.py's interleaved timing (CPU parts): the budget it hands the sweep's re-time; and
benchmarks/probe.py's shape parsing under a routing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# In its own process: ncu_probe imports sass_report, which sets TRITON_INTERPRET=0 for compiling to a target.
SCRIPT = """
import json
import sys
sys.path.insert(0, "benchmarks")
import gemmtune.engine.retime as retime
import ncu_probe
from gemmtune.problem import Problem

calls = []
def fake_retime_interleaved(launchers, method, rounds, warmup_ms, rep_ms, min_samples=1):
    calls.append((len(launchers), method, rounds, warmup_ms, rep_ms, min_samples))
    return [{"median_ms": 2.0, "p20_ms": 1.9, "p80_ms": 2.1, "samples": 7}, {"error": "OutOfResources"}]

retime.retime_interleaved = fake_retime_interleaved
problem = Problem("fwd", 8, 4096, 28672, 4096, 2)
ncu_probe.time_interleaved(problem, [("a", None), ("b", None), ("a", None)], rounds=3)
print(json.dumps({"calls": calls, "retime": retime.RETIME}))
"""


def test_time_interleaved_runs_at_the_sweeps_retime_budget_and_times_a_name_once():
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    *lines, last = out.stdout.strip().splitlines()
    seen = json.loads(last)
    budget = seen["retime"]
    assert seen["calls"] == [[2, "do_bench", 3, budget["warmup_ms"], budget["rep_ms"], budget["min_samples"]]]
    flops = 2 * 8192 * 28672 * 4096
    assert lines[0].split()[:4] == ["a", "2.0000", "ms", f"{flops / 2.0e9:.1f}"]
    assert lines[1].split() == ["b", "error:", "OutOfResources"]


SHAPE_SCRIPT = """
import json
import sys
sys.path.insert(0, "benchmarks")
import probe
problem, config = probe.problem_and_config("fwd:mixtral-8x7b:gate_up:4096:BLOCK_SIZE_M=128,num_stages=3", "balanced")
uniform, _ = probe.problem_and_config("fwd:mixtral-8x7b:gate_up:4096:BLOCK_SIZE_M=128")
print(json.dumps({"routing": problem.routing, "uniform": uniform.routing, "same_shape": problem.describe().replace(
    "balanced", "uniform") == uniform.describe(), "BM": config.BLOCK_SIZE_M, "stages": config.num_stages}))
"""


def test_probe_shape_takes_the_routing_into_its_problem():
    # The routing goes into the problem itself, so probe.shape makes the inputs once, under that routing.
    out = subprocess.run([sys.executable, "-c", SHAPE_SCRIPT], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen == {"routing": "balanced", "uniform": "uniform", "same_shape": True, "BM": 128, "stages": 3}
