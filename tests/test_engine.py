"""The sweep engine on the Triton CPU interpreter: faults, kill -9 and resume, Ctrl-C, journal, two-stage timing.

Worker processes are spawned (each imports torch: ~2-3 s), so each test starts as few as it can.
GEMMTUNE_FAULTS (gemmtune.engine.faults) makes chosen configs kill, hang or raise inside their worker.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
import torch
from typer.testing import CliRunner

from gemmtune.cli import app
from gemmtune.device import preset
from gemmtune.engine import EngineOptions, JournalMismatchError, parse_gpus, run_engine
from gemmtune.engine.compile import exceeds_device, meta_inputs
from gemmtune.engine.journal import Journal, final_rows, read_journal, result_key
from gemmtune.engine.retime import quantile, retime_interleaved, summarize, top_k
from gemmtune.problem import Problem
from gemmtune.results import KernelResult
from gemmtune.space import load_space
from gemmtune.sweep import plan_sweep

# These drive the engine on the interpreter backend (fake GPU indices 0 and 1) in worker processes forked
# from this one; with CUDA present gemmtune has already chosen the compiler, and the workers cannot switch.
# CPU CI runs them. (Seen on the H200: setup of the interpreter worker exits with code 1.)
interpreter_only = pytest.mark.skipif(
    torch.cuda.is_available(), reason="interpreter-backend engine test: runs on a CPU-only machine"
)

ROOT = Path(__file__).resolve().parent.parent
# Small enough for the interpreter (~0.1 s per config), big enough to have several M and N blocks per expert.
PROBLEM = Problem("fwd", 4, 32, 64, 64, 2, "bf16", "x")
SHAPE_ARGS = ["--shape", "4,32,64,64", "--topk", "2", "--permute", "x", "--space", "quick"]


def quick_plan(**overrides):
    space = load_space("quick").with_overrides(overrides)
    return plan_sweep([PROBLEM], space, preset("h100"))


def cfg_string(**fields) -> str:
    """The config string of a quick-space fwd config with permute_x (the key GEMMTUNE_FAULTS uses)."""
    base = {"BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 32, "num_warps": 4, "num_stages": 2}
    base.update(fields)
    return f"fwd BM{base['BLOCK_SIZE_M']} BN{base['BLOCK_SIZE_N']} BK32 G4 w{base['num_warps']} s{base['num_stages']}"


def journal_lines(path: Path) -> list[dict]:
    """Every whole record of a journal, header included (read while a sweep may be appending to it)."""
    if not path.exists():
        return []
    header, records, _ = read_journal(path)
    return ([header] if header else []) + records


# ---- fault injection ------------------------------------------------------------------------------------


@interpreter_only
def test_faulty_configs_get_their_status_and_every_other_config_is_measured(tmp_path, monkeypatch):
    plan = quick_plan(num_warps=[2, 4])  # 16 configs
    faults = {
        cfg_string(): "kill",  # its GPU worker dies → crashed
        cfg_string(num_stages=3): "hang",  # no answer → timeout, worker killed
        cfg_string(BLOCK_SIZE_M=64): "raise",  # an ordinary error → runtime_error, worker kept
        cfg_string(BLOCK_SIZE_M=64, num_stages=3): "sticky",  # illegal address → crashed, worker replaced
        cfg_string(BLOCK_SIZE_N=64): "compile-kill",  # its compile worker dies → crashed, never timed
        cfg_string(BLOCK_SIZE_N=64, num_stages=3): "compile-hang",  # compile past the timeout → timeout
        cfg_string(BLOCK_SIZE_M=64, BLOCK_SIZE_N=64): "compile-raise",  # compiler error → compile_error
    }
    monkeypatch.setenv("GEMMTUNE_FAULTS", json.dumps(faults))
    journal = tmp_path / "faults.journal.jsonl"
    options = EngineOptions(workers=1, config_timeout_s=4, retime_top=3, compile_stage=True)
    results = run_engine(plan, "interpreter", journal, options)

    by_config = {r.kernel_config.to_string(): r for r in results.results}
    assert len(by_config) == len(results.results) == 16
    expected = {
        cfg_string(): "crashed",
        cfg_string(num_stages=3): "timeout",
        cfg_string(BLOCK_SIZE_M=64): "runtime_error",
        cfg_string(BLOCK_SIZE_M=64, num_stages=3): "crashed",
        cfg_string(BLOCK_SIZE_N=64): "crashed",
        cfg_string(BLOCK_SIZE_N=64, num_stages=3): "timeout",
        cfg_string(BLOCK_SIZE_M=64, BLOCK_SIZE_N=64): "compile_error",
    }
    assert {c: by_config[c].status for c in expected} == expected
    assert "sticky CUDA error" in by_config[cfg_string(BLOCK_SIZE_M=64, num_stages=3)].error
    assert "compile" in by_config[cfg_string(BLOCK_SIZE_N=64, num_stages=3)].error
    others = [r for c, r in by_config.items() if c not in expected]
    assert len(others) == 9
    assert all(r.status == "ok" and r.triton_time_ms > 0 and r.rel_err is not None for r in others)
    # Two stages: the 3 fastest were re-timed (with a spread), the rest keep their screen time.
    stages = pd.Series([r.timing_stage for r in others]).value_counts().to_dict()
    assert stages == {"retime": 3, "screen": 6}
    assert all(r.spread is not None and r.spread >= 0 for r in others if r.timing_stage == "retime")
    # The torch baselines were re-timed in the same rounds: one set for the re-timed rows, none of the
    # setup-time sets that the screened rows carry.
    retimed_baselines = {tuple(r.baseline_ms.items()) for r in others if r.timing_stage == "retime"}
    screen_baselines = {tuple(r.baseline_ms.items()) for r in others if r.timing_stage == "screen"}
    assert len(retimed_baselines) == 1 and not retimed_baselines & screen_baselines
    assert {name for name, _ in retimed_baselines.pop()} == {name for name, _ in screen_baselines.pop()}
    assert results.metadata["engine"] == "parallel"
    assert results.metadata["worker_restarts"] == 5  # raise and compile-raise kept their workers
    assert "screen" in results.metadata["timing_stages"] and "retime" in results.metadata["timing_stages"]
    # Everything that finished is in the journal, once per config (plus the re-time records).
    records = journal_lines(journal)
    results_keys = [r["key"] for r in records if r["kind"] == "result"]
    assert len(results_keys) == len(set(results_keys)) == 16
    assert sum(r["kind"] == "retime" for r in records) == 3


# ---- kill -9 of the parent, then resume -----------------------------------------------------------------


def _sweep_cmd(out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "gemmtune", "sweep", *SHAPE_ARGS, "--out", str(out), "--name", "t",
            "--retime-top", "2", "--quiet", *extra]


def _env(faults: dict | None = None) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("GEMMTUNE_FAULTS", None)
    if faults:
        env["GEMMTUNE_FAULTS"] = json.dumps(faults)
    return env


def _wait_for_results(journal: Path, n: int, proc: subprocess.Popen, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if sum(r["kind"] == "result" for r in journal_lines(journal)) >= n:
            return
        assert proc.poll() is None, f"sweep ended early: {proc.communicate()}"
        time.sleep(0.05)
    proc.kill()
    pytest.fail(f"no {n} results in {journal} within {timeout_s} s")


def _slow_every_config(seconds: float) -> dict:
    return {c.to_string(): f"sleep:{seconds}" for c in quick_plan().problems[0].space.kept}


@interpreter_only
def test_kill_9_of_the_parent_then_rerun_loses_nothing_and_runs_nothing_twice(tmp_path):
    journal = tmp_path / "t.journal.jsonl"
    first = subprocess.Popen(_sweep_cmd(tmp_path), env=_env(_slow_every_config(0.4)),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _wait_for_results(journal, 1, first)
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=10)
    before = journal.read_bytes()
    kept = [r for r in journal_lines(journal) if r["kind"] == "result"]
    assert 1 <= len(kept) < 8 and not (tmp_path / "t.parquet").exists()

    # The same command again, with two workers this time: it finishes the rest.
    rerun = subprocess.run(_sweep_cmd(tmp_path, "--gpus", "0,1"), env=_env(_slow_every_config(0.5)),
                           capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert f"{len(kept)} of 8 configs taken from" in " ".join(rerun.stdout.split())

    after = journal.read_bytes()
    assert after.startswith(before[: before.rfind(b"\n") + 1])  # appended to, never rewritten
    records = journal_lines(journal)
    results = [r for r in records if r["kind"] == "result"]
    assert [r["key"] for r in results[: len(kept)]] == [r["key"] for r in kept]  # earlier lines reused
    keys = [r["key"] for r in results]
    assert len(keys) == len(set(keys)) == 8  # nothing lost, nothing twice
    assert any(r["kind"] == "resume" for r in records)
    new_workers = {r["worker"] for r in results[len(kept):]}
    assert new_workers == {"cpu0", "cpu1"}  # --gpus 0,1: the work was split over two workers

    df = pd.read_parquet(tmp_path / "t.parquet")
    assert len(df) == 8 and df["config"].is_unique and (df["status"] == "ok").all()
    assert (df["timing_stage"] == "retime").sum() == 2


# ---- Ctrl-C -----------------------------------------------------------------------------------------------


def _sigint_as_in_a_terminal() -> None:
    """SIGINT at its default in the child, as a terminal's foreground job has it. A test run started in the
    background of a non-interactive shell inherits SIGINT ignored, and Python then never turns it into
    KeyboardInterrupt (the sweep would run to its end, exit 0)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_cleanly_keeps_the_journal_and_exits_130(tmp_path):
    journal = tmp_path / "t.journal.jsonl"
    proc = subprocess.Popen(_sweep_cmd(tmp_path), env=_env(_slow_every_config(0.5)), start_new_session=True,
                            preexec_fn=_sigint_as_in_a_terminal, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    _wait_for_results(journal, 1, proc)
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: to the parent and its workers
    stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 130, stderr
    message = " ".join(stderr.split())
    assert "interrupted" in message and "resume" in message and "Traceback" not in stderr
    done = [r for r in journal_lines(journal) if r["kind"] == "result"]
    assert 1 <= len(done) < 8
    assert not (tmp_path / "t.parquet").exists()


# ---- resume against another plan ------------------------------------------------------------------------


def test_a_journal_of_another_plan_is_a_one_line_error_with_exit_2(tmp_path):
    other = plan_sweep([Problem("fwd", 4, 64, 64, 64, 2, "bf16", "x")], load_space("quick"), preset("h100"))
    from gemmtune.engine.journal import fingerprint

    Journal.open(tmp_path / "t.journal.jsonl", {"fingerprint": fingerprint(other, "interpreter", "interpreter")}).close()
    result = CliRunner().invoke(app, ["sweep", *SHAPE_ARGS, "--out", str(tmp_path), "--name", "t", "--quiet"])
    assert result.exit_code == 2
    assert "different sweep" in result.output and "problems" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "t.parquet").exists()


def test_bad_gpus_option_is_exit_2():
    result = CliRunner().invoke(app, ["sweep", *SHAPE_ARGS, "--gpus", "0,x", "--dry-run"])
    assert result.exit_code == 2 and "--gpus" in result.output


def test_dry_run_writes_no_journal(tmp_path):
    result = CliRunner().invoke(app, ["sweep", *SHAPE_ARGS, "--out", str(tmp_path), "--dry-run"])
    assert result.exit_code == 0
    assert list(tmp_path.iterdir()) == []


# ---- journal ---------------------------------------------------------------------------------------------


def _row(config, status="ok", ms=1.0) -> dict:
    return KernelResult(PROBLEM, config, status, triton_time_ms=ms).to_dict()


def test_journal_survives_a_torn_last_line_and_resumes_after_it(tmp_path):
    plan = quick_plan()
    configs = plan.problems[0].space.kept
    header = {"fingerprint": {"problems": [PROBLEM.to_dict()], "configs": "x", "timing": "t", "device": "d"}}
    path = tmp_path / "j.journal.jsonl"
    with Journal.open(path, header) as journal:
        for cfg in configs[:2]:
            journal.append({"kind": "result", "key": result_key(PROBLEM, cfg), "row": _row(cfg)})
    with open(path, "ab") as f:
        f.write(b'{"kind": "result", "key": "torn", "row": {"mo')  # a kill -9 in mid-write
    header_read, records, _ = read_journal(path)
    assert header_read["fingerprint"] == header["fingerprint"] and len(records) == 2

    with Journal.open(path, header) as journal:  # resume: the torn tail is cut before appending
        assert journal.resumed and len(journal.records) == 2
        journal.append({"kind": "result", "key": result_key(PROBLEM, configs[2]), "row": _row(configs[2])})
    lines = path.read_text().splitlines()
    assert all(json.loads(line) for line in lines) and len(lines) == 5  # header, 2, resume, 1


def test_journal_of_another_sweep_raises_and_no_resume_keeps_it_as_old(tmp_path):
    path = tmp_path / "j.journal.jsonl"
    Journal.open(path, {"fingerprint": {"problems": [1], "configs": "a", "timing": "t", "device": "d"}}).close()
    with pytest.raises(JournalMismatchError, match="different problems, config space"):
        Journal.open(path, {"fingerprint": {"problems": [2], "configs": "b", "timing": "t", "device": "d"}})
    with Journal.open(path, {"fingerprint": {"problems": [2], "configs": "b", "timing": "t", "device": "d"}}, resume=False) as j:
        assert not j.resumed
    assert (tmp_path / "j.journal.jsonl.old").exists()


def test_final_rows_keep_the_last_record_of_each_config_and_keys_are_stable():
    plan = quick_plan()
    a, b = plan.problems[0].space.kept[:2]
    ka, kb = result_key(PROBLEM, a), result_key(PROBLEM, b)
    assert ka != kb and ka == result_key(Problem(**PROBLEM.to_dict()), KernelResult.from_dict(_row(a)).kernel_config)
    rows = final_rows([
        {"kind": "result", "key": ka, "row": _row(a, ms=2.0)},
        {"kind": "result", "key": kb, "row": _row(b, ms=3.0)},
        {"kind": "retime", "key": ka, "row": _row(a, ms=1.5)},
        {"kind": "retimed", "problem": "p"},
    ])
    assert set(rows) == {ka, kb} and rows[ka]["triton_time_ms"] == 1.5


# ---- two-stage timing, compile-stage checks ---------------------------------------------------------------


def test_summary_statistics_and_top_k():
    assert quantile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.5
    stats = summarize([4.0, 1.0, 3.0, 2.0, 5.0])
    assert stats["median_ms"] == 3.0 and stats["spread"] == pytest.approx((4.0 - 2.0) / 3.0) and stats["samples"] == 5
    rows = [{"status": "ok", "triton_time_ms": t, "config": str(t)} for t in (3.0, 1.0, 2.0)]
    rows.append({"status": "wrong", "triton_time_ms": 0.5, "config": "w"})
    assert [r["config"] for r in top_k(rows, 2)] == ["1.0", "2.0"]
    assert top_k(rows, 0) == []


def test_retime_rounds_grow_rep_to_the_sample_floor_from_each_launchers_own_times(monkeypatch):
    # A fake do_bench: one sample per call per 12 ms of rep for the slow launcher, rep // 1 for the fast one.
    reps = {"slow": [], "fast": []}

    def fake_time_samples(fn, method, warmup_ms, rep_ms):
        name = fn()
        reps[name].append(rep_ms)
        per_sample = 12.0 if name == "slow" else 1.0
        return [per_sample] * max(1, int(rep_ms // per_sample))

    monkeypatch.setattr("gemmtune.runner.time_samples", fake_time_samples)
    timings = retime_interleaved([lambda: "slow", lambda: "fast"], "do_bench", 3, 5, 20, min_samples=5)
    # Round 1 at rep 20 ms: 1 sample for the slow one; rounds 2-3 at 1.1 * 5 * 12 = 66 ms: 5 each.
    assert reps["slow"] == [20, 66, 66] and timings[0]["samples"] == 1 + 5 + 5
    assert reps["fast"] == [20, 20, 20] and timings[1]["samples"] == 60
    # Without a floor, and for timings whose sample count is not set by rep, every round keeps rep_ms.
    reps = {"slow": [], "fast": []}
    retime_interleaved([lambda: "slow"], "do_bench", 3, 5, 20)
    retime_interleaved([lambda: "fast"], "cudagraph", 3, 5, 20, min_samples=5)
    assert reps == {"slow": [20, 20, 20], "fast": [20, 20, 20]}


def test_compiled_resources_over_the_device_limit_are_refused():
    h100 = preset("h100")
    assert exceeds_device({"shared_mem_bytes": 1000, "n_regs": 128}, 8, h100) is None
    assert "shared memory" in exceeds_device({"shared_mem_bytes": h100.SIZE_SMEM + 1, "n_regs": 64}, 4, h100)
    # 255 registers × 32 threads × 16 warps = 130,560 > 65,536 registers per SM
    assert "registers" in exceeds_device({"shared_mem_bytes": 0, "n_regs": 255}, 16, h100)


@pytest.mark.parametrize("mode, permute", [("fwd", "x"), ("dx", "y"), ("dw", "none")])
def test_meta_inputs_have_the_problem_shapes_and_no_storage(mode, permute):
    problem = Problem(mode, 4, 32, 48, 80, 2, "bf16", permute)
    inputs = meta_inputs(problem)
    tensors = {k: v for k, v in vars(inputs).items() if v is not None}
    assert all(t.device.type == "meta" for t in tensors.values())
    assert tuple(inputs.m_sizes.shape) == (4,) and tuple(inputs.gather_indices.shape) == (64,)
    if mode != "dx":
        assert tuple(inputs.x.shape) == ((32 if permute == "x" else 64), 80)
    if mode != "dw":
        assert tuple(inputs.w.shape) == (4, 48, 80)


def test_parse_gpus():
    assert parse_gpus("0,1,1") == [0, 1]
    with pytest.raises(ValueError):
        parse_gpus("-1")
