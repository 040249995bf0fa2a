"""The CLI end to end through Typer's CliRunner: a tiny sweep, show, best, and every kind of bad input."""

import pandas as pd
import pytest
from typer.testing import CliRunner

from gemmtune.cli import app
from gemmtune.results import read_results

runner = CliRunner()
TINY = ["--shape", "4,16,40,48", "--topk", "2", "--space", "quick", "--block-m", "16", "--num-stages", "2", "--quiet"]


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    out = tmp_path_factory.mktemp("results")
    result = runner.invoke(app, ["sweep", "--mode", "fwd", "--permute", "x", *TINY, "--out", str(out), "--name", "tiny"])
    assert result.exit_code == 0, result.output
    return out, result


def test_sweep_writes_parquet_and_csv_with_one_row_per_config(swept):
    out, result = swept
    df, meta = read_results(out / "tiny.parquet")
    csv = pd.read_csv(out / "tiny.csv")
    assert len(df) == len(csv) == 2  # quick space with BLOCK_SIZE_M=16, stages=2: BN {32, 64}
    assert set(df["status"]) == {"ok"}
    assert (df["rel_err"] < 1.5e-2).all() and df["triton_time_ms"].notna().all()
    assert meta["mode"] == "fwd" and meta["E"] == 4 and meta["permute"] == "x" and meta["topk"] == 2
    assert meta["interpreter"] is True or meta["backend"] == "cuda"
    for key in ("device_name", "compute_capability", "torch_version", "triton_version", "gemmtune_version",
                "timing_method", "created_at", "seed", "routing", "dtype"):
        assert key in meta
    assert "wrote" in result.output and "configs:" in result.output


def test_show_prints_table_and_metadata(swept):
    out, _ = swept
    result = runner.invoke(app, ["show", str(out / "tiny.parquet")])
    assert result.exit_code == 0, result.output
    assert "metadata" in result.output and "triton_version" in result.output and "BM16" in result.output


def test_best_ranks_ok_rows(swept):
    out, _ = swept
    result = runner.invoke(app, ["best", str(out / "tiny.parquet"), "--top", "1"])
    assert result.exit_code == 0, result.output
    df, _ = read_results(out / "tiny.parquet")
    fastest = df[df.status == "ok"].sort_values("triton_time_ms").iloc[0]["config"]
    assert fastest in result.output


def test_best_defaults_to_the_newest_file(swept, monkeypatch):
    out, _ = swept
    monkeypatch.setattr("gemmtune.cli.RESULTS_DIR", out)
    assert runner.invoke(app, ["best"]).exit_code == 0


def test_dry_run_writes_nothing(tmp_path):
    result = runner.invoke(app, ["sweep", "--shape", "128,4096,1536,2048", "--topk", "8", "--permute", "x",
                                 "--gpu", "h200", "--dry-run", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "would run" in result.output and "shared_memory" in result.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "args, message",
    [
        (["--shape", "8,a,3,4"], "not a whole number"),
        (["--shape", "0,1,1,1"], "must be positive"),
        (["--shape", "-8,64,64,64"], "must be positive"),
        (["--shape", "8,64,64"], "four numbers"),
        ([], "--shape"),
        (["--shape", "8,64,64,64", "--mode", "bwd"], "unknown mode 'bwd'"),
        (["--shape", "8,64,64,64", "--space", "nope"], "unknown space 'nope'"),
        (["--shape", "8,64,64,64", "--gpu", "tpu"], "unknown GPU preset 'tpu'"),
        (["--shape", "8,64,64,64", "--routing", "zipf:x"], "zipf"),
        (["--shape", "8,64,64,64", "--block-m", "64,x"], "--block-m"),
        (["--shape", "4,8,32,32", "--block-m", "256"], "pruning left no config"),
        (["--shape", "4,8,32,32", "--topk", "5"], "topk"),
    ],
)
def test_bad_sweep_input_is_one_line_and_exit_2(tmp_path, args, message):
    result = runner.invoke(app, ["sweep", "--out", str(tmp_path), *args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []  # nothing half-written


@pytest.mark.parametrize("content", [None, b"", b"PAR1 this is not parquet", "csv"])
def test_bad_results_files(tmp_path, content):
    path = tmp_path / "r.parquet"
    if content == "csv":
        pd.DataFrame({"a": [1]}).to_parquet(path)  # valid Parquet, not ours
    elif content is not None:
        path.write_bytes(content)
    for command in (["show", str(path)], ["best", str(path)]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2, result.output
        assert "Traceback" not in result.output and str(path.name) in result.output


def test_best_without_any_results(tmp_path, monkeypatch):
    monkeypatch.setattr("gemmtune.cli.RESULTS_DIR", tmp_path)
    result = runner.invoke(app, ["best"])
    assert result.exit_code == 2 and "no results files" in result.output


def test_version_and_help():
    assert runner.invoke(app, ["--version"]).output.startswith("gemmtune ")
    result = runner.invoke(app, ["sweep", "-h"])
    assert result.exit_code == 0 and "--shape" in result.output


def test_show_marks_screen_only_times(tmp_path, monkeypatch):
    import results_factory as rf
    from gemmtune.results import to_dataframe

    # The re-timed config ranks first although its screen-only rival reads faster.
    df = to_dataframe([rf.result(512, {"BLOCK_SIZE_M": 64}, 0.30), rf.result(512, {"BLOCK_SIZE_M": 32}, 0.25)])
    df["timing_stage"] = df["BLOCK_SIZE_M"].map({64: "retime", 32: "screen"})
    result = rf.cli_invoker(monkeypatch)("show", rf.write(tmp_path / "t.parquet", df))
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if " BM" in line]
    assert rf.name(64, 128) in lines[0] and "0.3000 " in lines[0]
    assert rf.name(32, 128) in lines[1] and "0.2500* " in lines[1]
    assert "* screen only: timed in a short burst, not re-timed" in result.output
