"""`gemmtune plot` (PNG figures) and `gemmtune compare` (two sweeps side by side), library and CLI."""

import math
import statistics

import pandas as pd
import pytest

import results_factory as rf
from gemmtune.compare import CompareError, compare_results
from gemmtune.plots import flops, plot_results

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
TIMES = {  # (BLOCK_SIZE_M, BLOCK_SIZE_N): {M: ms}
    (32, 32): {64: 1.0, 256: 3.0},
    (32, 64): {64: 0.8, 256: 2.5},
    (64, 64): {64: "pruned", 256: 2.0},
}


@pytest.fixture
def invoke(monkeypatch):
    return rf.cli_invoker(monkeypatch)


def both_gemms(times):
    return pd.concat([rf.table(times, gemm="gate_up"), rf.table(times, gemm="down")], ignore_index=True)


def assert_png(path):
    data = path.read_bytes()
    assert data.startswith(PNG_SIGNATURE) and len(data) > 1000, path


def test_plot_results_writes_two_pngs_per_family(tmp_path):
    paths = plot_results(both_gemms(TIMES), tmp_path / "plots")
    assert len(paths) == 4 and len(set(paths)) == 4
    assert sorted(p.name.split("_")[-1] for p in paths) == ["M.png", "M.png", "heatmap.png", "heatmap.png"]
    for path in paths:
        assert path.parent == tmp_path / "plots"
        assert_png(path)


def test_baseline_flops_formula_matches_the_problem():
    for gemm in rf.GEMMS:
        p = rf.problem(256, gemm=gemm)
        assert flops({"topk": p.topk, "N": p.N, "K": p.K}, p.M) == p.flops == 2 * p.M * p.topk * p.N * p.K


def test_cli_plot_default_folder_and_paths(invoke, tmp_path):
    path = rf.write(tmp_path / "sweep.parquet", both_gemms(TIMES))
    result = invoke("plot", path)
    assert result.exit_code == 0, result.output
    written = sorted((tmp_path / "sweep-plots").glob("*.png"))
    assert len(written) == 4
    for png in written:
        assert str(png) in result.output
        assert_png(png)


def test_cli_plot_out_option(invoke, tmp_path):
    path = rf.write(tmp_path / "sweep.parquet", rf.table(TIMES))
    result = invoke("plot", path, "-o", tmp_path / "figs")
    assert result.exit_code == 0, result.output
    assert len(list((tmp_path / "figs").glob("*.png"))) == 2


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda p: p, "does not exist"),  # missing file
        (lambda p: p.write_text("") or p, "is empty"),  # empty file
        (lambda p: rf.write(p, rf.table({(32, 32): {64: "wrong"}})), "no config ran correctly"),  # no ok rows
    ],
)
def test_cli_plot_bad_input(invoke, tmp_path, make, message):
    path = tmp_path / "bad.parquet"
    make(path)
    result = invoke("plot", path, "-o", tmp_path / "figs")
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output
    assert not list(tmp_path.glob("figs/*.png"))


# compare

A_TIMES = {(32, 32): {64: 1.0, 256: 3.0}, (32, 64): {64: 0.8, 256: 2.5}, (64, 64): {64: "pruned", 256: 2.0}}
B_TIMES = {
    (32, 32): {64: 0.5, 256: 3.3},  # faster at 64, slower at 256
    (32, 64): {64: 0.8, 256: "compile_error"},  # fails in B at 256: only in A
    (64, 64): {64: 0.9, 256: 1.6},  # ok in B at 64 where A pruned it: only in B
    (16, 16): {256: 4.0},  # a config only B has
}


def expected_pairs():
    """{(M, config string): B/A} of the configs ok in both, straight from the times."""
    return {
        (m, rf.name(*knobs)): B_TIMES[knobs][m] / t
        for knobs, by_m in A_TIMES.items()
        for m, t in by_m.items()
        if not isinstance(t, str) and knobs in B_TIMES and not isinstance(B_TIMES[knobs].get(m, "absent"), str)
    }


def ok_count(times):
    return sum(not isinstance(t, str) for by_m in times.values() for t in by_m.values())


def test_compare_ratios_and_counts():
    result = compare_results(rf.table(A_TIMES), rf.table(B_TIMES))
    expected = expected_pairs()
    got = {(int(r["M"]), r["config"]): r["ratio"] for _, r in result.rows.iterrows()}
    assert got.keys() == expected.keys()
    for key, ratio in expected.items():
        assert got[key] == pytest.approx(ratio)
    assert result.matched == len(expected)
    assert result.geomean_ratio == pytest.approx(statistics.geometric_mean(expected.values()))
    assert result.only_a == ok_count(A_TIMES) - len(expected)
    assert result.only_b == ok_count(B_TIMES) - len(expected)


def test_compare_matches_by_problem_too():
    # The same configs on the other gemm: no (problem, config) in common.
    with pytest.raises(CompareError, match="no \\(problem, config\\) pair"):
        compare_results(rf.table(A_TIMES, gemm="gate_up"), rf.table(A_TIMES, gemm="down"))


def test_cli_compare_table_and_summary(invoke, tmp_path):
    a = rf.write(tmp_path / "a.parquet", rf.table(A_TIMES))
    b = rf.write(tmp_path / "b.parquet", rf.table(B_TIMES))
    result = invoke("compare", a, b)
    assert result.exit_code == 0, result.output
    expected = expected_pairs()
    for (_, config), ratio in expected.items():
        assert config in result.output and f"{ratio:.3f}" in result.output
    geomean = statistics.geometric_mean(expected.values())
    assert f"geometric mean ratio B/A {geomean:.3f}" in result.output
    assert f"over {len(expected)} matched" in result.output
    assert f"{ok_count(A_TIMES) - len(expected)} only in A, {ok_count(B_TIMES) - len(expected)} only in B" in result.output


def test_cli_compare_top_shows_most_changed(invoke, tmp_path):
    a = rf.write(tmp_path / "a.parquet", rf.table(A_TIMES))
    b = rf.write(tmp_path / "b.parquet", rf.table(B_TIMES))
    result = invoke("compare", a, b, "--top", "1")
    assert result.exit_code == 0, result.output
    expected = expected_pairs()
    most = max(expected, key=lambda k: abs(math.log(expected[k])))  # farthest from 1 in log space
    assert f"(1 most changed of {len(expected)})" in result.output
    assert f"{expected[most]:.3f}" in result.output
    rows = [line for line in result.output.splitlines() if "M=" in line]
    assert len(rows) == 1 and most[1] in rows[0] and f"M={most[0]} " in rows[0] and f"{expected[most]:.3f}" in rows[0]


@pytest.mark.parametrize(
    "which, make, message",
    [
        ("b", lambda p: p, "does not exist"),  # missing B
        ("a", lambda p: p.write_bytes(b"garbage!") and p, "not a readable Parquet"),  # corrupt A
        ("b", lambda p: rf.write(p, rf.table({(32, 32): {64: "crashed"}})), "no config ran correctly in file B"),
        ("b", lambda p: rf.write(p, rf.table(A_TIMES, gemm="down")), "no (problem, config) pair"),  # nothing shared
    ],
)
def test_cli_compare_bad_input(invoke, tmp_path, which, make, message):
    good = rf.write(tmp_path / "good.parquet", rf.table(A_TIMES))
    bad = tmp_path / "bad.parquet"
    make(bad)
    args = (good, bad) if which == "b" else (bad, good)
    result = invoke("compare", *args)
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output
