"""Model presets: every preset loads, the two GEMMs of a layer have the right shapes, `gemmtune models`,
`gemmtune best --by M`, and bad model files."""

import tomllib

import pandas as pd
import pytest

import results_factory as rf
from gemmtune.models import MODELS_DIR, ModelError, all_presets, available_models, layer_problems, load_model
from gemmtune.results import best_per_problem

PRESETS = sorted(p.stem for p in MODELS_DIR.glob("*.toml"))


@pytest.fixture
def invoke(monkeypatch):
    return rf.cli_invoker(monkeypatch)


def test_the_presets_are_the_toml_files():
    assert PRESETS and available_models() == PRESETS
    assert [p.name for p in all_presets()] == PRESETS


@pytest.mark.parametrize("name", PRESETS)
def test_preset_loads_with_the_files_numbers(name):
    data = tomllib.loads((MODELS_DIR / f"{name}.toml").read_text())
    preset = load_model(name)
    assert (preset.experts, preset.hidden_size, preset.intermediate_size, preset.topk) == (
        data["experts"], data["hidden_size"], data["intermediate_size"], data["topk"])
    assert preset.source.startswith("https://")
    assert 1 <= preset.topk <= preset.experts


@pytest.mark.parametrize("name", PRESETS)
def test_layer_problems_shapes(name):
    preset = load_model(name)
    problems = layer_problems(preset, [512, 4096], ["fwd", "dx", "dw"])
    assert len(problems) == 2 * 2 * 3  # gemms × token counts × modes
    for p in problems:
        assert (p.E, p.topk) == (preset.experts, preset.topk)
        if p.gemm == "gate_up":  # gate and up projections fused; X gathered from token order
            assert (p.N, p.K, p.permute) == (2 * preset.intermediate_size, preset.hidden_size, "x")
        else:  # down projection; Y scattered back to token order
            assert p.gemm == "down"
            assert (p.N, p.K, p.permute) == (preset.hidden_size, preset.intermediate_size, "y")
    assert {p.M for p in problems} == {512, 4096}


def test_cli_models_lists_every_preset(invoke):
    result = invoke("models")
    assert result.exit_code == 0, result.output
    for preset in all_presets():
        assert preset.name in result.output and preset.source in result.output
        assert f"{2 * preset.intermediate_size}×{preset.hidden_size}" in result.output  # gate_up N×K


def test_cli_models_shows_a_users_toml(invoke, tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text('name = "tiny"\nexperts = 4\nhidden_size = 64\nintermediate_size = 32\ntopk = 2\nsource = "mine"\n')
    result = invoke("models", path)
    assert result.exit_code == 0, result.output
    assert "tiny" in result.output and "64×64" in result.output and "64×32" in result.output


BAD_TOMLS = [
    ("experts = 4\nhidden_size = 64\nintermediate_size = [32\n", "not valid TOML"),  # syntax error
    ("experts = 4\nhidden_size = 64\ntopk = 2\n", "intermediate_size must be a positive"),  # missing key
    ("experts = 0\nhidden_size = 64\nintermediate_size = 32\ntopk = 2\n", "experts must be a positive"),  # zero
    ("experts = 4\nhidden_size = 64.5\nintermediate_size = 32\ntopk = 2\n", "hidden_size must be"),  # not whole
]


@pytest.mark.parametrize("text, message", BAD_TOMLS)
def test_bad_model_toml_is_exit_2(invoke, tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ModelError, match=message):
        load_model(path)
    for args in (["models", path], ["sweep", "--model", path, "--tokens", "16", "--dry-run"]):
        result = invoke(*args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output and "Traceback" not in result.output


def test_unknown_model_name_and_missing_file(invoke, tmp_path):
    result = invoke("models", "no-such-model")
    assert result.exit_code == 2 and "unknown model 'no-such-model'" in result.output
    result = invoke("models", tmp_path / "missing.toml")
    assert result.exit_code == 2 and "does not exist" in result.output


# best --by M

TIMES = {  # (BLOCK_SIZE_M, BLOCK_SIZE_N): {M: ms}: (32, 64) wins at 64, (64, 64) at 256
    (32, 32): {64: 1.0, 256: 3.0},
    (32, 64): {64: 0.8, 256: 2.5},
    (64, 64): {64: "pruned", 256: 2.0},
}


def layer_table():
    return pd.concat([rf.table(TIMES, gemm="gate_up"), rf.table(TIMES, gemm="down"), rf.table(TIMES, mode="dx")],
                     ignore_index=True)


def test_best_per_problem_picks_the_fastest_ok_row_per_m():
    best = best_per_problem(layer_table())
    assert list(zip(best["mode"], best["gemm"], best["M"])) == [
        ("fwd", "gate_up", 64), ("fwd", "gate_up", 256), ("fwd", "down", 64), ("fwd", "down", 256),
        ("dx", "gate_up", 64), ("dx", "gate_up", 256),
    ]
    for _, row in best.iterrows():
        fastest = min(t[row["M"]] for t in TIMES.values() if not isinstance(t[row["M"]], str))
        assert row["triton_time_ms"] == fastest


def test_cli_best_by_m_is_one_table(invoke, tmp_path):
    path = rf.write(tmp_path / "r.parquet", layer_table())
    result = invoke("best", path, "--by", "M")
    assert result.exit_code == 0, result.output
    assert result.output.count("best config per (mode, gemm, M)") == 1
    best = best_per_problem(layer_table())
    lines = [line for line in result.output.splitlines() if line.startswith("│")]
    assert len(lines) == len(best)
    for line, (_, row) in zip(lines, best.iterrows()):
        assert row["config"] in line and f"{row['tflops']:.1f}" in line and f"{row['speedup']:.2f}×" in line
        assert f"│ {row['mode']} " in line and f" {row['gemm']} " in line
    # The slower config at each M is not listed.
    assert rf.name(32, 32) not in result.output


def test_cli_best_without_by_keeps_ranked_tables(invoke, tmp_path):
    path = rf.write(tmp_path / "r.parquet", rf.table(TIMES))
    result = invoke("best", path)
    assert result.exit_code == 0, result.output
    assert "best config per" not in result.output and rf.name(32, 32) in result.output


def test_cli_best_by_m_bad_input(invoke, tmp_path):
    assert invoke("best", tmp_path / "missing.parquet", "--by", "M").exit_code == 2
    path = rf.write(tmp_path / "r.parquet", rf.table({(32, 32): {64: "wrong"}}))
    result = invoke("best", path, "--by", "M")
    assert result.exit_code == 2 and "no config ran correctly" in result.output
    assert invoke("best", path, "--by", "N").exit_code == 2  # only M is a choice
