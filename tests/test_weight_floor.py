"""benchmarks/weight_floor.py: each problem's best config against the time of reading its weights once."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import results_factory as rf
from gemmtune.results import to_dataframe

ROOT = Path(__file__).resolve().parent.parent


def weight_floor(path: Path) -> str:
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "weight_floor.py"), str(path)],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return out.stdout


def table_with_weights(rows, N=4096, K=14336):
    """rows as a results table whose problem's W is E × N × K: mixtral-8x7b's down GEMM with the factory's
    4 experts."""
    df = to_dataframe(rows)
    df["N"], df["K"] = N, K
    return df


def test_best_share_of_floor_and_each_knob_with_and_without(tmp_path):
    rows = [
        rf.result(512, {}, 0.32),
        rf.result(512, {"warp_specialize": True}, 0.30),
        rf.result(512, {"warp_specialize": True, "TAIL_ROWS": 32}, 0.2875),
        rf.result(512, {"warp_specialize": True, "TAIL_ROWS": 16}, 0.25, status="wrong"),  # no time: left out
    ]
    line = weight_floor(rf.write(tmp_path / "t_fwd.parquet", table_with_weights(rows)))
    # 4 experts · 4096 · 14336 bf16 weights = 470 MB, read at 4.3 TB/s in 0.1092 ms: 38 % of 0.2875 ms
    assert f"{rf.config(warp_specialize=True, TAIL_ROWS=32).to_string()} 0.2875 ms, 38 % of the weight-read floor 0.1092 ms" in line
    assert "warp_specialize best without 0.3200 ms, with 0.2875 ms" in line
    assert "merged tails best without 0.3000 ms, with 0.2875 ms" in line


def test_a_file_from_before_merged_tails_gets_no_tail_figure(tmp_path):
    df = table_with_weights([rf.result(512, {}, 0.32), rf.result(512, {"warp_specialize": True}, 0.30)])
    line = weight_floor(rf.write(tmp_path / "old_fwd.parquet", df.drop(columns=["TAIL_ROWS"])))
    assert "warp_specialize best without 0.3200 ms, with 0.3000 ms" in line
    assert "merged tails" not in line


def test_each_knob_figure_says_how_it_was_timed(tmp_path):
    # Re-timed rows rank first (the best line), but the best without merged tails was only screened.
    df = table_with_weights([
        rf.result(512, {"warp_specialize": True, "TAIL_ROWS": 32}, 0.2875),
        rf.result(512, {"warp_specialize": True}, 0.2700),
    ])
    df["timing_stage"] = df["TAIL_ROWS"].map({32: "retime", 0: "screen"})
    line = weight_floor(rf.write(tmp_path / "s_fwd.parquet", df))
    assert f"{rf.config(warp_specialize=True, TAIL_ROWS=32).to_string()} 0.2875 ms" in line
    assert "merged tails best without 0.2700 ms (screen), with 0.2875 ms (retime)" in line
