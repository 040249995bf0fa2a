"""benchmarks/lever_effect.py: per problem, the best config with a knob set against the best without."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import results_factory as rf

ROOT = Path(__file__).resolve().parent.parent


def lever_effect(path: Path, *knobs: str) -> subprocess.CompletedProcess:
    args = [a for knob in knobs for a in ("--knob", knob)]
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "lever_effect.py"), str(path), *args],
                          capture_output=True, text=True, cwd=ROOT)


def test_a_knob_value_splits_the_configs_at_that_value(tmp_path):
    # BLOCK_SIZE_M's default is 64, so a bare knob would put 128 and 256 on one side; =256 asks about 256 alone.
    path = rf.write(tmp_path / "t_fwd.parquet", rf.table({(64, 64): {512: 0.40}, (128, 64): {512: 0.20},
                                                          (256, 64): {512: 0.25}}))
    out = lever_effect(path, "BLOCK_SIZE_M=256", "BLOCK_SIZE_M")
    assert out.returncode == 0, out.stderr
    by_value, bare = [line.split() for line in out.stdout.splitlines()[1:]]
    flops = rf.problem(512).flops
    # =256: on is 256 alone (0.25 ms), off the best of the rest (128 at 0.20 ms): 0.8.
    assert by_value[by_value.index("BLOCK_SIZE_M=256") + 1:][:3] == [
        f"{flops / 0.20e9:.3f}", f"{flops / 0.25e9:.3f}", "0.8"]
    # bare: on is anything but 64 (128 at 0.20 ms), off is 64 (0.40 ms): 2.0.
    assert bare[bare.index("BLOCK_SIZE_M") + 1:][:3] == [f"{flops / 0.40e9:.3f}", f"{flops / 0.20e9:.3f}", "2.0"]


def test_an_unknown_knob_or_a_value_of_the_wrong_type_is_one_line_and_exit_2(tmp_path):
    path = rf.write(tmp_path / "t_fwd.parquet", rf.table({(64, 64): {512: 0.40}}))
    for spec, says in [("BLOCK_SIZE_Q=2", "unknown knob 'BLOCK_SIZE_Q'"), ("half_tail=yes", "half_tail takes true or false"),
                       ("BLOCK_SIZE_M=big", "BLOCK_SIZE_M takes a whole number")]:
        out = lever_effect(path, spec)
        assert out.returncode == 2 and says in out.stderr and "Traceback" not in out.stderr
