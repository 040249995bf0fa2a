"""benchmarks/screen_rank.py: where the re-time's winner stood in the screen, from a sweep's journal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import results_factory as rf
from gemmtune.engine.journal import Journal, problem_key, result_key

ROOT = Path(__file__).resolve().parent.parent


def journal_of(path: Path, screen: dict, retime: dict, M: int = 512) -> Path:
    """A journal with one screen record per BLOCK_SIZE_M of `screen` ({bm: ms}) and a re-time record per bm
    of `retime` ({bm: ms}), all of one problem; the baselines' best time is 1.0 ms."""
    journal = Journal.open(path, {"fingerprint": {"problems": [], "configs": "test", "timing": "do_bench"}})
    for bm, ms in screen.items():
        row = rf.result(M, {"BLOCK_SIZE_M": bm}, ms)
        key = result_key(row.problem, row.kernel_config)
        journal.append({"kind": "result", "key": key, "problem": problem_key(row.problem), "stage": "run",
                        "row": row.to_dict()})
    for bm, ms in retime.items():
        row = rf.result(M, {"BLOCK_SIZE_M": bm}, ms, baselines={"torch_loop": 1.0})
        journal.append({"kind": "retime", "key": result_key(row.problem, row.kernel_config),
                        "problem": problem_key(row.problem), "row": row.to_dict()})
    journal.close()
    return path


def screen_rank(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "screen_rank.py"), *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT)


def test_winner_outside_the_screens_top_k(tmp_path):
    # Screen order 16 < 32 < 64 < 128; sustained, 128 (screen rank 4) wins and 32 is the best of the first two.
    path = journal_of(tmp_path / "s.journal.jsonl", {16: 0.80, 32: 0.82, 64: 0.84, 128: 0.86},
                      {16: 1.00, 32: 0.98, 64: 1.02, 128: 0.95})
    out = screen_rank(path, "--top", "2")
    assert out.returncode == 0, out.stderr
    line = out.stdout.splitlines()[1]
    winner = rf.config(BLOCK_SIZE_M=128).to_string()
    assert f"4 re-timed; winner {winner} (screen rank 4, 0.9500 ms, 1.053× best torch)" in line
    assert f"best of the screen's first 2: {rf.config(BLOCK_SIZE_M=32).to_string()} 0.9800 ms, 1.032× the winner's time" in line
    # ranks (1, 2, 3, 4) against (3, 2, 4, 1): rho = 1 - 6·(4 + 0 + 1 + 9) / (4·15) = -0.4
    assert "Spearman -0.40" in line
    assert "screen/re-time 0.830" in line  # median of 0.800, 0.837, 0.824, 0.905


def test_configs_screened_but_not_retimed_only_count_for_rank(tmp_path):
    path = journal_of(tmp_path / "s.journal.jsonl", {16: 0.70, 32: 0.80, 64: 0.90}, {32: 1.10, 64: 1.00})
    line = screen_rank(path, "--top", "1").stdout.splitlines()[1]
    assert "2 re-timed; winner" in line and "(screen rank 3," in line
    assert "none of the screen's first 1 re-timed" in line


def test_not_a_journal_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "x.jsonl"
    bad.write_text("not json\n")
    out = screen_rank(bad)
    assert out.returncode == 2
    assert out.stderr.strip() == f"error: {bad}: not a gemmtune journal (no header line)"
