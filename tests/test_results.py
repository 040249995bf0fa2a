"""KernelResult rows, ranking, and the Parquet/CSV round trip with metadata."""

import json

import pandas as pd
import pyarrow.parquet as pq
import pytest

from gemmtune.config import KernelConfigBackward_dW, KernelConfigForward
from gemmtune.problem import Problem
from gemmtune.results import COLUMNS, METADATA_KEY, KernelResult, ResultsError, SweepResults, read_results, write_results
from gemmtune.runner import TritonTuningContext

P = Problem("fwd", 8, 256, 512, 1024, 2, permute="x", gemm="gate_up")


def result(ms, status="ok", **config):
    return KernelResult(P, KernelConfigForward(permute_x=True, **config), status, rel_err=1e-3 if ms else None,
                        triton_time_ms=ms, baseline_ms={"torch_loop": 0.5, "torch_grouped_mm": 0.4})


def test_derived_fields():
    r = result(0.2)
    assert r.torch_baseline == "torch_grouped_mm" and r.torch_time_ms == 0.4
    assert r.speedup == pytest.approx(2.0)
    assert r.tflops == pytest.approx(P.flops / 0.2e-3 / 1e12)
    assert r.gbps == pytest.approx(P.bytes_moved / 0.2e-3 / 1e9)
    assert result(None, "compile_error").speedup is None


def test_dataframe_has_fixed_columns_and_ranks_ok_first():
    df = SweepResults([result(0.3), result(None, "out_of_resources", BLOCK_SIZE_M=128), result(0.1, BLOCK_SIZE_N=64)], {}).to_dataframe()
    assert list(df.columns) == COLUMNS
    assert list(df["status"]) == ["ok", "ok", "out_of_resources"]
    assert list(df["triton_time_ms"][:2]) == [0.1, 0.3]
    assert df["speedup"].iloc[0] == pytest.approx(4.0)


def test_parquet_and_csv_round_trip(tmp_path):
    meta = {"device_name": "NVIDIA H200", "mode": "fwd", "E": 8, "seed": 0}
    results = [result(0.3), result(0.1, BLOCK_SIZE_N=64), result(None, "wrong")]
    parquet, csv = write_results(SweepResults(results, meta), tmp_path, "rt")
    df, back = read_results(parquet)
    assert back["device_name"] == "NVIDIA H200" and back["E"] == 8 and "units" in back
    assert json.loads(pq.read_schema(parquet).metadata[METADATA_KEY])["mode"] == "fwd"
    from_csv = pd.read_csv(csv)
    assert list(from_csv.columns) == COLUMNS
    assert list(from_csv["config"]) == list(df["config"]) and list(from_csv["status"]) == list(df["status"])
    pd.testing.assert_series_equal(from_csv["triton_time_ms"], df["triton_time_ms"])
    rebuilt = [KernelResult.from_dict(row) for row in df.to_dict("records")]
    assert {(r.kernel_config, r.status, r.triton_time_ms) for r in rebuilt} == {
        (r.kernel_config, r.status, r.triton_time_ms) for r in results
    }
    assert not list(tmp_path.glob(".*tmp"))  # temporary files are renamed or removed


def test_mode_specific_fields_survive_a_mixed_table(tmp_path):
    dw = KernelResult(Problem("dw", 8, 256, 512, 1024, 2), KernelConfigBackward_dW(SPLIT_M=2), "ok", triton_time_ms=0.2)
    parquet, _ = write_results(SweepResults([result(0.1), dw], {}), tmp_path, "mixed")
    df, _ = read_results(parquet)
    back = {r.problem.mode: r for r in (KernelResult.from_dict(row) for row in df.to_dict("records"))}
    assert back["dw"].kernel_config == KernelConfigBackward_dW(SPLIT_M=2)
    assert back["fwd"].kernel_config == KernelConfigForward(permute_x=True)


def test_missing_file():
    with pytest.raises(ResultsError, match="does not exist"):
        read_results("/nonexistent/x.parquet")


def test_tuning_context_records_failures_and_never_swallows_interrupts():
    with TritonTuningContext(KernelConfigForward()) as ctx:
        raise RuntimeError("CUDA error: an illegal memory access was encountered")
    assert ctx.status == "runtime_error" and "illegal memory access" in ctx.error
    from triton.runtime.errors import OutOfResources

    with TritonTuningContext(KernelConfigForward()) as ctx:
        raise OutOfResources(262144, 232448, "shared memory")
    assert ctx.status == "out_of_resources" and "262,144" in ctx.error and "232,448" in ctx.error
    with pytest.raises(KeyboardInterrupt):
        with TritonTuningContext(KernelConfigForward()):
            raise KeyboardInterrupt
