"""Export to tuned JSON and lookup(): the format, nearest-M choice, errors, the cache, threads, and the CLI."""

import json
import math
import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
import pytest

import gemmtune
import gemmtune.export as export_module
import results_factory as rf
from gemmtune.config import KernelConfigBackward_dW, KernelConfigForward
from gemmtune.export import TunedConfigNotFound, TunedFileError, clear_cache, export_file, lookup, nearest_token_count

TOKENS = [128, 512, 2048]
# A distinct winner per M (BLOCK_SIZE_M grows with M), each 30 % faster than the others there.
WINNERS = {128: (32, 64), 512: (64, 64), 2048: (128, 64)}


def per_m_times():
    return {knobs: {m: (1.0 if WINNERS[m] == knobs else 1.3) * m / 128 for m in TOKENS} for knobs in WINNERS.values()}


@pytest.fixture
def invoke(monkeypatch):
    return rf.cli_invoker(monkeypatch)


@pytest.fixture
def tuned(tmp_path):
    """A tuned.json of both gemms of fwd (tolerance 0: each M's own best) and its results file."""
    df = pd.concat([rf.table(per_m_times(), gemm="gate_up"), rf.table(per_m_times(), gemm="down")], ignore_index=True)
    results = rf.write(tmp_path / "r.parquet", df)
    out = tmp_path / "tuned.json"
    export_file(results, out, tolerance=0.0)
    clear_cache()
    return out


def ask(path, M, gemm="gate_up", **kw):
    N, K, _ = rf.GEMMS[gemm]
    return lookup(path, mode="fwd", gemm=gemm, E=rf.E, N=N, K=K, M=M, **kw)


def test_document_format(tuned):
    doc = json.loads(tuned.read_text())
    assert doc["format"] == "gemmtune-tuned-configs" and doc["version"] == 1
    for key, value in [("device_name", rf.METADATA["device_name"]), ("compute_capability", "9.0"),
                       ("triton_version", rf.METADATA["triton_version"]), ("gemmtune_version", gemmtune.__version__)]:
        assert doc[key] == value
    assert doc["created_at"] and doc["tolerance"] == 0.0
    assert [(e["mode"], e["gemm"]) for e in doc["entries"]] == [("fwd", "gate_up"), ("fwd", "down")]
    entry = doc["entries"][0]
    assert (entry["E"], entry["N"], entry["K"], entry["topk"], entry["dtype"], entry["permute"]) == (
        rf.E, *rf.GEMMS["gate_up"][:2], rf.TOPK, "bf16", "x")
    assert list(entry["configs_by_M"]) == [str(m) for m in TOKENS]
    for m in TOKENS:
        c = entry["configs_by_M"][str(m)]
        assert (c["BLOCK_SIZE_M"], c["BLOCK_SIZE_N"]) == WINNERS[m] and c["permute_x"] is True
        assert set(KernelConfigForward.field_names()) <= set(c)
        time = per_m_times()[WINNERS[m]][m]
        assert c["triton_time_ms"] == pytest.approx(time) and c["slowdown"] == 1.0
        assert c["tflops"] == pytest.approx(2 * m * rf.TOPK * entry["N"] * entry["K"] / (time * 1e9))


def test_lookup_round_trip_at_tuned_ms(tuned):
    for m in TOKENS:
        config = ask(tuned, m)
        assert isinstance(config, KernelConfigForward)
        assert (config.BLOCK_SIZE_M, config.BLOCK_SIZE_N) == WINNERS[m] and config.permute_x
    assert ask(tuned, 512, gemm="down").permute_y


@pytest.mark.parametrize(
    "M",
    [1, 100, 200, 256, 300, 1000, 1024, 1500, 1 << 20],  # below, between (256 and 1024: exact log ties), above
)
def test_lookup_takes_nearest_m_in_log_space_ties_to_larger(tuned, M):
    distance = {m: abs(math.log(M) - math.log(m)) for m in TOKENS}
    closest = min(distance.values())
    tied = [m for m in TOKENS if math.isclose(distance[m], closest, rel_tol=1e-12)]
    expected = max(tied)
    assert nearest_token_count(TOKENS, M) == expected
    assert ask(tuned, M).BLOCK_SIZE_M == WINNERS[expected][0]


def test_tolerance_ships_fewer_configs(tmp_path):
    # One config within 3 % of the best everywhere: with 5 % tolerance it serves every M alone.
    times = per_m_times()
    times[(16, 32)] = {m: 1.03 * m / 128 for m in TOKENS}
    path = rf.write(tmp_path / "r.parquet", rf.table(times))
    doc = export_file(path, tmp_path / "t.json", tolerance=0.05)
    configs = {c["config"] for c in doc["entries"][0]["configs_by_M"].values()}
    assert configs == {rf.name(16, 32)}
    assert all(c["slowdown"] == pytest.approx(1.03) for c in doc["entries"][0]["configs_by_M"].values())
    doc = export_file(path, tmp_path / "t0.json", tolerance=0.0)
    assert {c["config"] for c in doc["entries"][0]["configs_by_M"].values()} == {rf.name(*w) for w in WINNERS.values()}


def test_lookup_returns_the_modes_dataclass_with_ints(tmp_path):
    times = {(64, 64): {256: 1.0}}
    df = rf.table(times, mode="dw")
    df.loc[:, "SPLIT_M"] = 2.0  # a Parquet float column of an int field
    path = rf.write(tmp_path / "r.parquet", df)
    export_file(path, tmp_path / "t.json")
    config = lookup(tmp_path / "t.json", mode="dw", E=rf.E, N=64, K=64, M=256)
    assert isinstance(config, KernelConfigBackward_dW) and config.SPLIT_M == 2 and type(config.SPLIT_M) is int


def test_no_match_names_the_ask_and_what_exists(tuned):
    with pytest.raises(TunedConfigNotFound) as info:
        lookup(tuned, mode="dx", E=rf.E, N=64, K=64, M=512)
    message = str(info.value)
    assert isinstance(info.value, LookupError)
    assert "mode=dx" in message and "M=512" in message
    assert "mode=fwd gemm=gate_up" in message and "mode=fwd gemm=down" in message and "128, 512, 2048" in message
    with pytest.raises(TunedConfigNotFound, match="E=99"):
        lookup(tuned, mode="fwd", E=99, N=64, K=64, M=512)


def test_ambiguous_ask_says_how_to_choose(tuned):
    # Two entries with the same mode, E, N and K (told apart only by gemm): asking without gemm is ambiguous.
    doc = json.loads(tuned.read_text())
    doc["entries"][1]["K"] = doc["entries"][0]["K"]
    doc["entries"][1]["gemm"] = "gate_up_copy"
    tuned.write_text(json.dumps(doc))
    with pytest.raises(TunedConfigNotFound, match="2 entries .* match"):
        lookup(tuned, mode="fwd", E=rf.E, N=64, K=64, M=512)
    assert lookup(tuned, mode="fwd", gemm="gate_up_copy", E=rf.E, N=64, K=64, M=512).permute_y


@pytest.mark.parametrize(
    "text, message",
    [
        ("{not json", "not valid JSON"),
        ('{"format": "other"}', "not a gemmtune tuned-config file"),
        ('{"format": "gemmtune-tuned-configs", "version": 99, "entries": []}', "version 99"),
        ('{"format": "gemmtune-tuned-configs", "version": 1, "entries": [{"mode": "fwd"}]}', "malformed entry"),
    ],
)
def test_bad_files(tmp_path, text, message):
    path = tmp_path / "t.json"
    path.write_text(text)
    with pytest.raises(TunedFileError, match=message):
        lookup(path, mode="fwd", E=1, N=1, K=1, M=1)


def test_missing_file_and_bad_m(tmp_path, tuned):
    with pytest.raises(TunedFileError, match="does not exist"):
        lookup(tmp_path / "nope.json", mode="fwd", E=1, N=1, K=1, M=1)
    for bad in (0, -5, 512.0, "512", True):
        with pytest.raises(ValueError, match="positive whole number"):
            ask(tuned, bad)
    assert ask(tuned, np.int64(512)).BLOCK_SIZE_M == WINNERS[512][0]  # numpy integers are fine


def test_cache_parses_once_and_rereads_a_rewritten_file(tmp_path, tuned, monkeypatch):
    parses = []
    real = export_module._parse
    monkeypatch.setattr(export_module, "_parse", lambda *a: parses.append(1) or real(*a))
    assert ask(tuned, 512).BLOCK_SIZE_M == 64
    assert ask(tuned, 2048).BLOCK_SIZE_M == 128
    assert len(parses) == 1
    # Re-export from results where another config wins at 512: the next lookup sees it.
    times = per_m_times()
    times[(16, 16)] = {m: 0.5 * m / 128 for m in TOKENS}
    export_file(rf.write(tmp_path / "r2.parquet", rf.table(times)), tuned, tolerance=0.0)
    assert ask(tuned, 512).BLOCK_SIZE_M == 16
    assert len(parses) == 2
    # A rewrite in place (same inode) with another modification time also invalidates.
    doc = json.loads(tuned.read_text())
    doc["entries"][0]["configs_by_M"]["512"]["BLOCK_SIZE_M"] = 256
    tuned.write_text(json.dumps(doc))
    os.utime(tuned, ns=(1, 1))
    assert ask(tuned, 512).BLOCK_SIZE_M == 256


def test_concurrent_lookups_from_threads(tuned, monkeypatch):
    parses = []
    lock = threading.Lock()
    real = export_module._parse

    def counting(*args):
        with lock:
            parses.append(1)
        return real(*args)

    monkeypatch.setattr(export_module, "_parse", counting)
    asks = [(m, gemm) for m in (100, 128, 300, 512, 700, 2048, 5000) for gemm in ("gate_up", "down")] * 40
    with ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(lambda a: ask(tuned, a[0], gemm=a[1]), asks))
    for (m, _), config in zip(asks, got):
        assert config.BLOCK_SIZE_M == WINNERS[nearest_token_count(TOKENS, m)][0]
    assert len(parses) == 1


def test_lookup_is_exported_from_the_package():
    assert gemmtune.lookup is lookup and "lookup" in gemmtune.__all__


# CLI


def test_cli_export_writes_json(invoke, tmp_path):
    results = rf.write(tmp_path / "r.parquet", rf.table(per_m_times()))
    out = tmp_path / "sub" / "tuned.json"
    result = invoke("export", results, "-o", out, "--tolerance", "0")
    assert result.exit_code == 0, result.output
    assert f"wrote {out}" in result.output and "3 distinct configs" in result.output
    doc = json.loads(out.read_text())
    assert len(doc["entries"]) == 1 and len(doc["entries"][0]["configs_by_M"]) == len(TOKENS)
    for knobs in WINNERS.values():
        assert rf.name(*knobs) in result.output


def test_cli_export_warns_about_interpreter_times(invoke, tmp_path):
    results = rf.write(tmp_path / "r.parquet", rf.table(per_m_times()), backend="interpreter")
    result = invoke("export", results, "-o", tmp_path / "t.json")
    assert result.exit_code == 0 and "interpreter" in result.output


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda p: p, "does not exist"),  # missing file
        (lambda p: p.write_bytes(b"\x00garbage") and p, "not a readable Parquet"),  # corrupt file
        (lambda p: rf.write(p, rf.table({(32, 32): {16: "out_of_resources"}})), "no config ran correctly"),  # no ok rows
    ],
)
def test_cli_export_bad_input(invoke, tmp_path, make, message):
    path = tmp_path / "bad.parquet"
    make(path)
    out = tmp_path / "t.json"
    result = invoke("export", path, "-o", out)
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output
    assert not out.exists()


def test_cli_export_negative_tolerance(invoke, tmp_path):
    results = rf.write(tmp_path / "r.parquet", rf.table(per_m_times()))
    assert invoke("export", results, "--tolerance", "-0.5", "-o", tmp_path / "t.json").exit_code == 2
