"""Regret matrix and shipped set: ratios, where each time comes from, the set cover, and `gemmtune regret`."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest

import results_factory as rf
from gemmtune.backend import select_backend
from gemmtune.regret import RegretError, min_cover, regret_matrix

TOL = 0.05
A, B, C = (32, 32), (64, 64), (32, 64)
TOKENS = [16, 32, 64, 128, 256, 512]


@pytest.fixture
def invoke(monkeypatch):
    return rf.cli_invoker(monkeypatch)


def cover_times():
    """A wins the three small Ms, B the three large; C is 2 % off at four Ms and 50 % off at the other two.

    Picking the config that covers most Ms first (C) needs three configs; the smallest cover is {A, B}.
    """
    base = {m: m / 16 for m in TOKENS}
    small = TOKENS[:3]
    return {
        A: {m: base[m] * (1.0 if m in small else 2.0) for m in TOKENS},
        B: {m: base[m] * (2.0 if m in small else 1.0) for m in TOKENS},
        C: {m: base[m] * (1.5 if m in (TOKENS[2], TOKENS[5]) else 1.02) for m in TOKENS},
    }


def covers_from(times, tol):
    """{config: set of Ms where it is within tol of that M's best}, straight from the times."""
    best = {m: min(t[m] for t in times.values()) for m in TOKENS}
    return {rf.name(*c): {m for m in TOKENS if t[m] <= best[m] * (1 + tol)} for c, t in times.items()}


def test_set_cover_is_the_smallest_not_the_greedy_one():
    times = cover_times()
    (matrix,) = regret_matrix(rf.table(times), measure=None, tolerance=TOL)
    covers = covers_from(times, TOL)
    # Brute force over subsets, smallest first: every minimal cover.
    for size in range(1, len(covers) + 1):
        minimal = [set(s) for s in itertools.combinations(covers, size) if set().union(*(covers[c] for c in s)) == set(TOKENS)]
        if minimal:
            break
    assert len(minimal) == 1, "test data should have one smallest cover"
    assert set(matrix.shipped) == minimal[0]
    # Greedy by most Ms covered would take more: the data tells exact from greedy apart.
    greedy, left = [], set(TOKENS)
    while left:
        pick = max(covers, key=lambda c: len(covers[c] & left))
        greedy.append(pick)
        left -= covers[pick]
    assert len(greedy) > len(matrix.shipped)
    # Every M uses a shipped config within the tolerance, the fastest shipped one there.
    for m in TOKENS:
        chosen = matrix.assignment[m]
        assert chosen in matrix.shipped and m in covers[chosen]
        assert matrix.ratios.at[chosen, m] == min(matrix.ratios.at[c, m] for c in matrix.shipped)


def test_ratios_are_time_over_best_and_all_recorded():
    times = cover_times()
    (matrix,) = regret_matrix(rf.table(times), measure=None, tolerance=TOL)
    assert matrix.tokens == TOKENS
    for c, by_m in times.items():
        for m in TOKENS:
            best = min(t[m] for t in times.values())
            assert matrix.ratios.at[rf.name(*c), m] == pytest.approx(by_m[m] / best)
            assert matrix.sources.at[rf.name(*c), m] == "recorded"
    assert matrix.measured == 0
    assert {matrix.winners[m] for m in TOKENS} == {rf.name(*A), rf.name(*B)}


def test_zero_tolerance_ships_each_ms_own_best():
    times = cover_times()
    (matrix,) = regret_matrix(rf.table(times), measure=None, tolerance=0.0)
    assert set(matrix.shipped) == set(matrix.winners.values())
    assert matrix.assignment == matrix.winners


def measured_times(b_at_16_ratio):
    """A wins M=16; B wins 32 and 64 but the sweep pruned it at 16; A is wrong at 64."""
    return {
        A: {16: 1.0, 32: 2.6, 64: "wrong"},
        B: {16: "pruned", 32: 2.0, 64: 4.0},
    }, {(rf.name(*A), 16): 10.0, (rf.name(*B), 16): 10.0 * b_at_16_ratio}


@pytest.mark.parametrize("b_at_16_ratio", [1.02, 1.2])  # B within / outside the tolerance at its pruned M
def test_only_missing_cells_are_measured_against_the_remeasured_winner(b_at_16_ratio):
    times, fake = measured_times(b_at_16_ratio)
    calls = []

    def measure(problem, config):
        calls.append((config.to_string(), problem.M))
        assert problem.M == 16 and problem.gemm == "gate_up" and problem.N == rf.GEMMS["gate_up"][0]
        return fake[(config.to_string(), problem.M)]

    (matrix,) = regret_matrix(rf.table(times), measure=measure, tolerance=TOL)
    a, b = rf.name(*A), rf.name(*B)
    assert sorted(calls) == sorted(fake)  # the pruned cell and M=16's winner, nothing recorded
    assert matrix.sources.at[b, 16] == "measured" and matrix.measured == 1
    assert matrix.ratios.at[b, 16] == pytest.approx(fake[(b, 16)] / fake[(a, 16)])
    assert matrix.sources.at[a, 64] == "failed" and math.isinf(matrix.ratios.at[a, 64])
    assert matrix.ratios.at[a, 32] == pytest.approx(2.6 / 2.0)
    expected = [b] if b_at_16_ratio <= 1 + TOL else sorted([a, b])
    assert sorted(matrix.shipped) == sorted(expected)
    assert matrix.assignment[64] == b


def test_no_measure_leaves_unknown_cells_uncovered():
    times, _ = measured_times(1.0)
    (matrix,) = regret_matrix(rf.table(times), measure=None, tolerance=TOL)
    b = rf.name(*B)
    assert matrix.sources.at[b, 16] == "unknown" and np.isnan(matrix.ratios.at[b, 16])
    assert len(matrix.shipped) == 2


def test_a_failed_measurement_counts_as_failed():
    times, _ = measured_times(1.0)
    (matrix,) = regret_matrix(rf.table(times), measure=lambda p, c: None, tolerance=TOL)
    b = rf.name(*B)
    assert matrix.sources.at[b, 16] == "failed" and math.isinf(matrix.ratios.at[b, 16])


def test_families_are_separate_matrices():
    df = pd.concat([rf.table(cover_times(), gemm="gate_up"), rf.table(cover_times(), gemm="down")], ignore_index=True)
    matrices = regret_matrix(df, measure=None)
    assert [m.family["gemm"] for m in matrices] == ["gate_up", "down"]
    assert all(m.family["N"] == rf.GEMMS[m.family["gemm"]][0] for m in matrices)


def test_greedy_beyond_the_exact_limit_still_covers_every_m():
    rng = np.random.default_rng(0)
    ratios = pd.DataFrame(1 + rng.random((12, 20)) * 0.2, index=[f"c{i}" for i in range(12)], columns=range(20))
    for j in range(20):  # each column has a best
        ratios.iat[j % 12, j] = 1.0
    chosen = min_cover(ratios, TOL)
    assert all((ratios.loc[chosen, j] <= 1 + TOL).any() for j in range(20))
    assert len(set(chosen)) == len(chosen) <= 12


def test_no_ok_rows_and_bad_tolerance_raise():
    with pytest.raises(RegretError, match="no config ran correctly"):
        regret_matrix(rf.table({A: {16: "compile_error"}}), measure=None)
    with pytest.raises(RegretError, match="tolerance"):
        regret_matrix(rf.table(cover_times()), measure=None, tolerance=-0.1)


def other_backend():
    return "interpreter" if select_backend() == "cuda" else "cuda"


def test_default_measure_refuses_another_backends_file():
    times, _ = measured_times(1.0)
    with pytest.raises(RegretError, match="--no-measure"):
        regret_matrix(rf.table(times), metadata={"backend": other_backend()})


def test_default_measure_runs_the_kernel_on_this_backend():
    # M=16 has 32 rows: the sweep prunes BLOCK_SIZE_M=64 there, so it is timed now.
    times = {(32, 64): {16: 1.0, 32: 1.0}, (64, 64): {16: "pruned", 32: 0.5}}
    (matrix,) = regret_matrix(rf.table(times), metadata={"backend": select_backend()})
    name = rf.name(64, 64)
    assert matrix.sources.at[name, 16] == "measured"
    assert 0 < matrix.ratios.at[name, 16] < math.inf


# CLI


def test_cli_regret_prints_matrix_and_shipped_set(invoke, tmp_path):
    path = rf.write(tmp_path / "r.parquet", rf.table(cover_times()))
    result = invoke("regret", path, "--no-measure")
    assert result.exit_code == 0, result.output
    for c in (A, B):  # the winners (and shipped); C wins nowhere and is not shipped
        assert rf.name(*c) in result.output
    assert rf.name(*C) not in result.output
    assert "ship 2 config(s)" in result.output and "M=512" in result.output


def test_cli_regret_measures_only_when_asked(invoke, tmp_path):
    times, _ = measured_times(1.0)
    path = rf.write(tmp_path / "r.parquet", rf.table(times), backend=other_backend())
    result = invoke("regret", path, "--no-measure")
    assert result.exit_code == 0, result.output
    assert "?" in result.output
    result = invoke("regret", path)  # needs a measurement on another backend than the file's
    assert result.exit_code == 2 and "--no-measure" in result.output


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda p: p, "does not exist"),  # missing file
        (lambda p: p.write_bytes(b"not parquet") and p, "not a readable Parquet"),  # corrupt file
        (lambda p: rf.write(p, rf.table({A: {16: "compile_error"}})), "no config ran correctly"),  # no ok rows
    ],
)
def test_cli_regret_bad_input(invoke, tmp_path, make, message):
    path = tmp_path / "bad.parquet"
    make(path)
    result = invoke("regret", path, "--no-measure")
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_cli_regret_negative_tolerance(invoke, tmp_path):
    path = rf.write(tmp_path / "r.parquet", rf.table(cover_times()))
    assert invoke("regret", path, "--tolerance", "-1").exit_code == 2
