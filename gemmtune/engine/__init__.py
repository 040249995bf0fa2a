"""The sweep engine: parallel compilation, isolated GPU workers, a durable journal, two-stage timing.

    from gemmtune.engine import EngineOptions, run_engine, journal_path
    results = run_engine(plan, "cuda", journal_path(out_dir, name), EngineOptions(gpus=[0, 1]))

Modules, one job each: process (spawned workers and their dict protocol), compile (the compile stage),
worker (the GPU worker body), retime (two-stage timing), journal (append-only JSON Lines), scheduler (the
event loop that ties them together), faults (a test hook).
"""

from gemmtune.engine.journal import JournalMismatchError, journal_path
from gemmtune.engine.scheduler import EngineError, EngineOptions, SweepInterrupted, parse_gpus, run_engine

__all__ = ["EngineError", "EngineOptions", "JournalMismatchError", "SweepInterrupted", "journal_path", "parse_gpus", "run_engine"]
