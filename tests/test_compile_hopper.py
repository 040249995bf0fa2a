"""Kernels built for Hopper (sm_90) on this machine, GPU or not, with benchmarks/sass_report.py.

CI has no GPU, so this is where the Gluon warp-specialized kernels (never interpreted) are at least compiled
on every run: it must build, issue its MMAs as wgmma (HGMMA) and its loads as TMA (UTMALDG), spill nothing, and
use no more shared memory than pruning predicts. Runs in a subprocess: the compiler needs TRITON_INTERPRET=0
from before triton's import, which the interpreter-backed test session cannot switch to.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from gemmtune.config import KernelConfigBackward_dW, KernelConfigBackward_dX, KernelConfigForward
from gemmtune.pruning import shared_memory_bytes

ROOT = Path(__file__).resolve().parent.parent
WS = dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64, num_warps=8, num_stages=3, use_tma_load_x=True,
          use_tma_load_w=True, pregather=True, warp_specialize=True)
WS_DX = dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=64, BLOCK_SIZE_K=256, num_warps=8, num_stages=3, use_tma_load_dy=True,
             use_tma_load_w=True, pregather=True, warp_specialize=True)
WS_DW = dict(BLOCK_SIZE_M=64, BLOCK_SIZE_N=128, BLOCK_SIZE_K=256, num_warps=8, num_stages=3, use_tma_load_x=True,
             use_tma_load_dy=True, pregather=True, warp_specialize=True)


def sass_report(config: dict, mode: str = "fwd", gemm: str = "gate_up", sass_out: Path | None = None) -> dict:
    """benchmarks/sass_report.py's figures for one mixtral config of `mode` and `gemm`, as {name: int}; with
    `sass_out`, its SASS is also written there as config0.sass."""
    text = ",".join(f"{k}={int(v)}" for k, v in config.items())
    extra = ["--sass-out", str(sass_out)] if sass_out is not None else []
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "sass_report.py"), "--model", "mixtral-8x7b",
                          "--gemm", gemm, "--mode", mode, "--config", text, *extra],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    line = out.stdout.strip().splitlines()[-1]
    return {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", line)}


@pytest.mark.parametrize("store", [False, True])
def test_warp_specialized_kernel_builds_for_hopper(store):
    config = dict(WS, use_tma_store=store)
    report = sass_report(config)
    assert report["HGMMA"] > 0 and report["UTMALDG"] > 0, report
    assert report.get("UTMASTG", 0) == (1 if store else 0), report
    assert report["spills"] == 0 and report.get("LDL", 0) == 0, report
    # A tile stored from registers leaves in 16-byte pieces: 128·256 bf16 over 256 threads is 16 stores each
    # (64 of 4 bytes in the wgmma accumulator's own layout).
    assert report["STG"] <= 16, report
    predicted = shared_memory_bytes(KernelConfigForward(permute_x=True, **config), 2)
    assert report["smem"] <= predicted, (report["smem"], predicted)


@pytest.mark.parametrize("store", [False, True])
def test_warp_specialized_dw_kernel_builds_for_hopper(store):
    config = dict(WS_DW, use_tma_store=store)
    report = sass_report(config, "dw")
    assert report["HGMMA"] > 0 and report["UTMALDG"] > 0 and report.get("LDGSTS", 0) == 0, report
    assert report.get("UTMASTG", 0) == (1 if store else 0), report
    assert report["spills"] == 0 and report.get("LDL", 0) == 0, report
    assert report["STG"] <= 16, report  # a 128×256 tile from registers in 16-byte pieces, as in the forward
    predicted = shared_memory_bytes(KernelConfigBackward_dW(permute_x=True, **config), 2)
    assert report["smem"] <= predicted, (report["smem"], predicted)


def test_scaled_register_store_builds_for_hopper():
    # The down GEMM (permute_y): fuse_mul_post scales each row in the accumulator's layout, then the tile
    # becomes 16-byte rows scattered through gather_indices.
    config = dict(WS, pregather=False, fuse_mul_post=True)
    report = sass_report(config, gemm="down")
    assert report["HGMMA"] > 0 and report["spills"] == 0 and report["STG"] <= 16, report
    assert report["smem"] <= shared_memory_bytes(KernelConfigForward(permute_y=True, **config), 2), report


@pytest.mark.parametrize("block_m, tail_rows", [(128, 0), (128, 32), (256, 32)])
def test_loader_gather_builds_for_hopper(block_m, tail_rows):
    # permute_x without pregather: the loader warpgroup gathers X's rows (and the merged tail's) with 16-byte
    # cp.async (LDGSTS), W alone comes by TMA, and neither partition spills.
    config = dict(WS, BLOCK_SIZE_M=block_m, BLOCK_SIZE_N=32768 // block_m, num_stages=4, use_tma_load_x=False,
                  pregather=False, TAIL_ROWS=tail_rows)
    report = sass_report(config)
    assert report["HGMMA"] > 0 and report.get("LDGSTS", 0) > 0 and report["UTMALDG"] == 1, report
    assert report["spills"] == 0 and report.get("LDL", 0) == 0, report
    assert report["smem"] <= shared_memory_bytes(KernelConfigForward(permute_x=True, **config), 2), report


def test_merged_tail_builds_for_hopper():
    # The tail's wgmma has the tail's rows as N: 64x32x16 beside the tile's 64x256x16, no spills.
    plain, merged = sass_report(WS), sass_report(dict(WS, TAIL_ROWS=32))
    assert merged["HGMMA"] > plain["HGMMA"] and merged["UTMALDG"] > plain["UTMALDG"], (plain, merged)
    assert merged["spills"] == 0 and merged.get("LDL", 0) == 0, merged
    predicted = shared_memory_bytes(KernelConfigForward(permute_x=True, TAIL_ROWS=32, **WS), 2)
    assert plain["smem"] < merged["smem"] <= predicted, (merged["smem"], predicted)


@pytest.mark.parametrize("extra, gemm, loops", [
    ({}, "gate_up", 1),
    ({"TAIL_ROWS": 32}, "gate_up", 2),
    ({"TAIL_ROWS": 32, "dynamic_schedule": True, "pregather": False, "split_tail": True}, "down", 4),
])
def test_wgmmas_stay_in_flight_within_each_k_loop(extra, gemm, loops):
    # One full wgmma wait per K loop (the tile's, the merged tail's, split_tail's three parts); ptxas serializing the
    # wgmmas shows as one per HGMMA instead (docs/perf-notes.md, entries 64-65: C7514/C7515).
    report = sass_report(dict(WS, **extra), "fwd", gemm)
    assert report["waits"] == loops, report


@pytest.mark.parametrize("mode", ["fwd", "dx"])
def test_split_tail_builds_for_hopper(mode, tmp_path):
    # split_tail: the tile's K loop in three parts around its share of the tail's steps, the tail's group still
    # first in its part; its sums added by REDG and counted by one more atomic (ATOMG) than the carried tail.
    # ptxas keeps a few of the tile's scalars on the stack across them (5 STL and 5 LDL per tile at 32-row tails),
    # never in a K loop. On mixtral's unrouted operands: the forward's down GEMM reduces over 224 K steps, dX's
    # gate_up over 448, both past pruning.TAIL_SPLIT_STEPS.
    config = dict(WS if mode == "fwd" else WS_DX, TAIL_ROWS=32, dynamic_schedule=True, pregather=False)
    gemm = "down" if mode == "fwd" else "gate_up"
    carried = sass_report(config, mode, gemm)
    split = sass_report(dict(config, split_tail=True), mode, gemm, sass_out=tmp_path)
    assert split["spills"] == 0 and split.get("LDL", 0) <= 8, split
    assert split["ATOMG"] == carried["ATOMG"] + 1 and split["smem"] == carried["smem"], (carried, split)
    sass = (tmp_path / "config0.sass").read_text()
    assert re.search(r"REDG\.E\.ADD\.F32", sass)
    loops = k_loops(sass)
    assert len(loops) == 4 and not [line for loop in loops for line in loop if re.match(r"(LDL|STL)\b", line)]
    assert_tail_groups_go_first(hgmma_groups(sass))


@pytest.mark.parametrize("mode", ["fwd", "dx"])
def test_column_tail_builds_for_hopper(mode, tmp_path):
    # column_tail: beside the carried tail's K loop (for experts of one full block), one per half of the output
    # block, each with a tail group over half of W's slabs, still issued first; the same shared memory, no spills,
    # and every loop's wgmmas in flight (one wait inside each, ptxas serializing would put one after each HGMMA).
    config = dict(WS if mode == "fwd" else WS_DX, TAIL_ROWS=32)
    gemm = "gate_up" if mode == "fwd" else "down"  # dX pregathers dY only under permute_y
    carried = sass_report(config, mode, gemm)
    column = sass_report(dict(config, column_tail=True), mode, gemm, sass_out=tmp_path)
    assert column["spills"] == 0 and column.get("LDL", 0) == 0 and column["smem"] == carried["smem"], column
    sass = (tmp_path / "config0.sass").read_text()
    hgmma = sorted(sum("HGMMA" in line for line in loop) for loop in k_loops(sass))
    # Per K step of 64 and warpgroup: the tile's 4 HGMMA.64x256x16, the tail's 8 (two 64-row slabs of the
    # warpgroup's 128 output columns) carried whole, or 4 (one slab) over half the columns.
    assert hgmma == [4, 8, 8, 12], hgmma
    assert column["waits"] <= len(hgmma), column
    assert_tail_groups_go_first(hgmma_groups(sass))


@pytest.mark.parametrize("mode, gemm", [("fwd", "gate_up"), ("dx", "down")])
def test_split_tail_on_a_short_reduction_builds_the_carried_kernel(mode, gemm, tmp_path):
    # 64 K steps, under pruning.TAIL_SPLIT_STEPS: split_tail launches the carried tail's kernel, SASS for SASS.
    config = dict(WS if mode == "fwd" else WS_DX, TAIL_ROWS=32, dynamic_schedule=True)
    sass_report(config, mode, gemm, sass_out=tmp_path / "carried")
    sass_report(dict(config, split_tail=True), mode, gemm, sass_out=tmp_path / "split")
    carried, split = ((tmp_path / arm / "config0.sass").read_text() for arm in ("carried", "split"))
    assert "REDG" not in split and split == carried


def hgmma_groups(sass: str) -> list[str]:
    """The wgmma groups of SASS in program order, each as its HGMMA shape (e.g. '64x256x16'): a group ends at
    the HGMMA that carries gsb0."""
    groups, shapes = [], []
    for shape, last in re.findall(r"HGMMA\.(\d+x\d+x\d+)\S*[^;]*?(gsb0)?\s*;", sass):
        shapes.append(shape)
        if last:
            groups.append("+".join(sorted(set(shapes))))
            shapes = []
    return groups


def assert_tail_groups_go_first(groups: list[str]) -> None:
    """hgmma_groups has tail groups (64x32x16), and each is followed by the tile's (64x256x16) of the same K step,
    not by the next step's wait."""
    tail_groups = [i for i, shape in enumerate(groups) if shape == "64x32x16"]
    assert tail_groups, groups
    assert all(i + 1 < len(groups) and groups[i + 1] == "64x256x16" for i in tail_groups), groups


@pytest.mark.parametrize("mode", ["fwd", "dx"])
def test_merged_tail_wgmma_goes_first(mode, tmp_path):
    # The tail's wgmma group (64x32x16) is issued before the tile's (64x256x16) in each K step (fwd_ws.k_loop,
    # perf-notes entry 52): in the SASS a tail group is followed by the tile's, not by the next step's wait.
    config = dict(WS if mode == "fwd" else WS_DX, TAIL_ROWS=32)
    gemm = "gate_up" if mode == "fwd" else "down"  # dX pregathers dY only under permute_y
    sass_report(config, mode, gemm, sass_out=tmp_path)
    assert_tail_groups_go_first(hgmma_groups((tmp_path / "config0.sass").read_text()))


@pytest.mark.parametrize("route", ["pregather", "loader_gather"])
def test_dynamic_schedule_builds_for_hopper(route):
    # The loader claims tiles with one atomic add (ATOMG) and hands each tile's id to the MMA warps through
    # shared memory; the kernel without the knob has no atomic at all. With merged tails, no spills either.
    config = dict(WS, TAIL_ROWS=32)
    if route == "loader_gather":
        config.update(use_tma_load_x=False, pregather=False)
    static, dynamic = sass_report(config), sass_report(dict(config, dynamic_schedule=True))
    assert static.get("ATOMG", 0) == 0 and dynamic["ATOMG"] == 1, (static, dynamic)
    assert dynamic["HGMMA"] == static["HGMMA"] and dynamic["spills"] == 0 and dynamic.get("LDL", 0) == 0, dynamic
    assert dynamic["smem"] <= shared_memory_bytes(KernelConfigForward(permute_x=True, dynamic_schedule=True, **config),
                                                  2), dynamic


@pytest.mark.parametrize("tail_rows", [0, 16])
def test_narrow_warp_specialized_tiles_build_for_hopper(tail_rows):
    # BLOCK_SIZE_N 64 over 8 warps: the tail's accumulator (BLOCK_SIZE_N rows) puts two warpgroups side by
    # side. Its stand-in without merged tails was once a wgmma of N = 4, on which Triton 3.6 aborted.
    config = dict(WS, BLOCK_SIZE_N=64, TAIL_ROWS=tail_rows)
    report = sass_report(config)
    assert report["HGMMA"] > 0 and report["spills"] == 0, report
    assert report["smem"] <= shared_memory_bytes(KernelConfigForward(permute_x=True, **config), 2), report


@pytest.mark.parametrize("mode, block_out", [("fwd", 320), ("fwd", 384), ("dx", 384)])
def test_split_output_blocks_build_for_hopper(mode, block_out):
    # An output block that is not a power of two: two accumulators (256 + 64 or 256 + 128 columns), each
    # with its own W box, so one wgmma more per K step of 16 and one TMA load more per ring step.
    # dX of the down GEMM: dY routed (permute_y) and pregathered, as the forward's X is under permute_x.
    base, field, gemm, permutation = ((WS, "BLOCK_SIZE_N", "gate_up", "permute_x") if mode == "fwd"
                                      else (WS_DX, "BLOCK_SIZE_K", "down", "permute_y"))
    whole = sass_report(base, mode, gemm)
    split = sass_report(dict(base, **{field: block_out}), mode, gemm)
    assert split["HGMMA"] == 2 * whole["HGMMA"], (whole, split)
    assert split["spills"] == 0 and split.get("LDL", 0) == 0, split
    config_cls = KernelConfigForward if mode == "fwd" else KernelConfigBackward_dX
    config = config_cls(**{permutation: True}, **dict(base, **{field: block_out}))
    assert split["smem"] <= shared_memory_bytes(config, 2), split


# 256×128 tiles with the loader's gather are left out: they spill (2-6 words of local memory per thread in the
# H200 sweeps of docs/perf-notes.md entry 47), and were never a shape's best.
@pytest.mark.parametrize("route, block_m, block_k", [("pregather", 128, 256), ("loader_gather", 128, 256),
                                                     ("pregather", 256, 128)])
def test_dx_builds_for_hopper_on_the_forward_kernel(route, block_m, block_k):
    # dX of the down GEMM (permute_y) on the forward's Gluon kernel, W[e]'s roles swapped, with merged tails and
    # the dynamic schedule: dY's rows pregathered and read by TMA, or gathered by the loader's cp.async; in
    # 128×256 tiles, and in the 256×128 ones that win at 256 rows per expert (docs/perf-notes.md entry 47).
    config = dict(WS_DX, BLOCK_SIZE_M=block_m, BLOCK_SIZE_K=block_k, TAIL_ROWS=32, dynamic_schedule=True)
    if route == "loader_gather":
        config.update(use_tma_load_dy=False, pregather=False)
    report = sass_report(config, "dx", gemm="down")
    assert report["HGMMA"] > 0 and report["ATOMG"] == 1, report
    assert (report.get("LDGSTS", 0) > 0) == (route == "loader_gather"), report
    assert report["spills"] == 0 and report.get("LDL", 0) == 0, report
    assert report["smem"] <= shared_memory_bytes(KernelConfigBackward_dX(permute_y=True, **config), 2), report


def k_loops(sass: str, opcode: str = "HGMMA") -> list[list[str]]:
    """The instructions of each innermost loop of a SASS listing that issues `opcode` (HGMMA: the MMA warps' K
    or M loops; UTMALDG: the loaders'): the range of a conditional backward branch (the unconditional branches
    back from an mbarrier wait's retry path are left out), with no other such range inside it."""
    code = [(int(addr, 16), text.strip()) for addr, text in re.findall(r"/\*([0-9a-f]{4,})\*/\s+([^;]*);", sass)]
    index = {addr: i for i, (addr, _) in enumerate(code)}
    ranges = []
    for i, (addr, text) in enumerate(code):
        branch = re.match(r"@!?U?P\w+\s+BRA\s+0x([0-9a-f]+)", text)
        if branch and int(branch.group(1), 16) <= addr and int(branch.group(1), 16) in index:
            first = index[int(branch.group(1), 16)]
            if any(opcode in line for _, line in code[first:i + 1]):
                ranges.append((first, i))
    inner = [r for r in ranges if not any(o != r and r[0] <= o[0] and o[1] <= r[1] for o in ranges)]
    return [[line for _, line in code[first:last + 1]] for first, last in inner]


def mode_loops(mode: str, gemm: str, extra: dict, tmp_path: Path, opcode: str = "HGMMA") -> list[list[str]]:
    """k_loops of the sm_90 build of `mode`'s Gluon config here (WS, WS_DX or WS_DW) with `extra` over it, on
    mixtral's `gemm`."""
    base = {"fwd": WS, "dx": WS_DX, "dw": WS_DW}[mode]
    sass_report(dict(base, **extra), mode, gemm=gemm, sass_out=tmp_path)
    return k_loops((tmp_path / "config0.sass").read_text(), opcode)


# dX with merged tails split: on mixtral's gate_up GEMM, whose 448 K steps split them (pruning.TAIL_SPLIT_STEPS) and
# whose dY is not routed (so not pregathered). The other builds: dX on the down GEMM (dY routed and pregathered),
# the forward and dW on gate_up.
SPLIT_DX = ("dx", "gate_up", dict(TAIL_ROWS=32, split_tail=True, pregather=False))


def r2ur(loop: list[str]) -> list[str]:
    """The loop's R2UR instructions (a move from a vector to a uniform register), predicated or not."""
    return [line for line in loop if re.match(r"(@!?U?P\w+\s+)?R2UR\b", line)]


@pytest.mark.parametrize("mode, gemm, extra", [("fwd", "gate_up", {}),
                                               ("fwd", "gate_up", dict(TAIL_ROWS=32, dynamic_schedule=True)),
                                               ("fwd", "gate_up", dict(use_tma_store=True)),
                                               ("dx", "down", dict(TAIL_ROWS=32)), SPLIT_DX, ("dw", "gate_up", {})])
def test_k_loops_build_descriptors_on_the_uniform_datapath(mode, gemm, extra, tmp_path):
    # The tile and M loops' bounds and branches go through warp_uniform (redux.sync), so ptxas proves them
    # uniform and keeps each wgmma descriptor in uniform registers: no R2UR in a K loop. Steered by scalars
    # reduced over the expert vectors instead, a 128×256 forward K step took 85 instructions, 16 of them R2UR
    # (docs/perf-notes.md, entry 57).
    loops = mode_loops(mode, gemm, dict(extra, num_stages=4) if extra.get("TAIL_ROWS") else extra, tmp_path)
    # one loop, and with merged tails the tail's; split_tail runs the plain loop before and after the tail's too
    expected = 1 + (1 if extra.get("TAIL_ROWS") else 0) + (2 if extra.get("split_tail") else 0)
    assert len(loops) == expected, [len(loop) for loop in loops]
    for loop in loops:
        assert not r2ur(loop), loop


@pytest.mark.parametrize("mode, gemm, extra", [("fwd", "gate_up", dict(TAIL_ROWS=32, dynamic_schedule=True)),
                                               ("fwd", "gate_up", dict(BLOCK_SIZE_N=384)),
                                               ("dx", "down", dict(TAIL_ROWS=32)), SPLIT_DX, ("dw", "gate_up", {})])
def test_loaders_issue_tma_from_uniform_registers(mode, gemm, extra, tmp_path):
    # The TMA loaders' tile loops, coordinates and merged-tail branch go through warp_uniform too, so a K or M
    # step's copies take their coordinates and addresses from uniform registers: no R2UR in the loader's loop.
    # Before, the forward loader's K step with merged tails took 90 instructions here, 24 of them R2UR, and
    # dW's M step 128, 47 of them R2UR (57 and 62 after; docs/perf-notes.md, entry 58).
    loops = mode_loops(mode, gemm, extra, tmp_path, "UTMALDG")
    assert len(loops) == 1, [len(loop) for loop in loops]
    assert not r2ur(loops[0]), loops[0]


@pytest.mark.parametrize("rows, cols, num_warps, line_bytes", [(128, 256, 8, 128), (256, 128, 8, 128),
                                                               (128, 64, 4, 128), (64, 32, 4, 64), (128, 16, 8, 32)])
def test_register_store_writes_whole_lines(rows, cols, num_warps, line_bytes):
    # A tile stored from registers is first laid out so that each warp keeps its accumulator's 16 rows (no
    # exchange across warps) and its lanes cover a row's 128-byte line of bf16 where the tile is that wide: a
    # warp's 16-byte stores then write 4 whole lines, where 2 lanes per row wrote 32 bytes of 16 rows.
    from gemmtune.kernels.hopper_ws import accumulator_layout, row_store_layout

    layout = row_store_layout(accumulator_layout(rows, cols, num_warps), cols)
    assert layout.size_per_thread[1] == 8 and layout.warps_per_cta == [num_warps, 1], layout
    assert layout.size_per_thread[0] * layout.threads_per_warp[0] == 16, layout
    assert layout.threads_per_warp[1] * layout.size_per_thread[1] * 2 == line_bytes, layout
