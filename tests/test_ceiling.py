"""benchmarks/ceiling.py: the roofline from ceilings measured in the same run, beside the anchors' (CPU parts)."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import results_factory as rf
from gemmtune.problem import Problem

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import ceiling  # noqa: E402

DENSE_FLOPS = 2 * 8192**3


def mixtral_gate_up(M: int) -> Problem:
    return Problem("fwd", 8, M, 28672, 4096, 2, "bf16", "x", "uniform", 0, "gate_up")


def times(ours_tflops: float, dense_tflops: float, copy_tbps: float, problem: Problem, **torch_ms) -> dict:
    """Median times in ms that give these rates."""
    return {"ours": problem.flops / (ours_tflops * 1e9), "dense": DENSE_FLOPS / (dense_tflops * 1e9),
            "copy": 2 * (1 << 30) / (copy_tbps * 1e9), **torch_ms}


def test_a_compute_bound_row_is_judged_against_the_runs_torch_mm():
    problem = mixtral_gate_up(4096)
    ms = times(612, 680, 4.0, problem, torch_loop=3.0, torch_grouped_mm=3.3)
    row = ceiling.figures(problem, ms)
    assert row["dense_tflops"] == pytest.approx(680) and row["copy_tbps"] == pytest.approx(4.0)
    # Reading W, X and Y at 4.0 TB/s bounds this GEMM at 3,231 TF/s, far above the torch.mm, which is the roofline.
    assert row["roofline_tflops"] == pytest.approx(680)
    assert row["roofline_pct"] == pytest.approx(90.0)
    assert row["anchors_roofline_pct"] == pytest.approx(100 * 612 / 806)
    assert row["speedup"] == pytest.approx(3.0 / ms["ours"])  # against the faster torch baseline


def test_a_memory_bound_row_is_judged_against_the_runs_copy():
    problem = mixtral_gate_up(512)
    row = ceiling.figures(problem, times(400, 680, 4.0, problem, torch_loop=0.6))
    # 1.94 GB moved at 4.0 TB/s: 0.4855 ms, 495.4 TF/s, below the torch.mm's 680.
    assert row["roofline_tflops"] == pytest.approx(495.41, abs=0.01)
    assert row["roofline_pct"] == pytest.approx(100 * 400 / 495.41, abs=0.01)
    # The anchors' 4.3 TB/s: 532.6 TF/s.
    assert row["anchors_roofline_pct"] == pytest.approx(100 * 400 / 532.57, abs=0.01)
    assert math.isnan(row["torch_grouped_mm_tflops"])  # torch without _grouped_mm: no figure, no crash


def test_best_rows_takes_each_problems_fastest_ok_config_and_the_model_from_the_file_name(tmp_path):
    path = rf.write(tmp_path / "olmoe-1b-7b_fwd_M256_uniform_bf16.parquet",
                    rf.table({(64, 64): {256: 0.40, 512: 0.30}, (128, 64): {256: 0.20, 512: "wrong"}}))
    found = {(r.problem.M, r.kernel_config.BLOCK_SIZE_M) for _, _, r in ceiling.best_rows([path])}
    assert found == {(256, 128), (512, 64)}
    assert {model for model, _, _ in ceiling.best_rows([path])} == {"olmoe-1b-7b"}


def test_markdown_gives_a_row_per_problem_and_a_failed_check_its_status():
    problem = mixtral_gate_up(4096)
    ok = {"model": "mixtral-8x7b", "gemm": "gate_up", "M": 4096, "status": "ok",
          **ceiling.figures(problem, times(612, 680, 4.0, problem, torch_loop=3.0, torch_grouped_mm=3.3))}
    wrong = {"model": "mixtral-8x7b", "gemm": "down", "M": 4096, "status": "wrong"}
    lines = ceiling.markdown(pd.DataFrame([ok, wrong]), "H200, one run").splitlines()
    assert lines[0] == "H200, one run"
    assert lines[4] == "| mixtral-8x7b | gate_up | 4096 | 612 | 641 | 583 | 680 | 4.00 | 90 % | 76 % |"
    assert lines[5] == "| mixtral-8x7b | down | 4096 | wrong | | | | | | |"


def test_a_missing_or_unreadable_file_is_one_line_and_exit_2_before_any_gpu_work(tmp_path):
    junk = tmp_path / "junk.parquet"
    junk.write_text("not parquet")
    for path in (tmp_path / "absent.parquet", junk):
        out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "ceiling.py"), str(path),
                              "--out", str(tmp_path / "out")], capture_output=True, text=True, cwd=ROOT)
        assert out.returncode == 2 and out.stderr.startswith("error: ") and "Traceback" not in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1
        assert not (tmp_path / "out").exists()
