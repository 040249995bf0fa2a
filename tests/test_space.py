"""Enumeration of config spaces, TOML loading, and every pruning rule."""

import dataclasses

import pytest

from gemmtune.config import KernelConfigBackward_dW, KernelConfigBackward_dX, KernelConfigForward, parse_modes
from gemmtune.device import PRESETS, preset
from gemmtune.problem import Problem
from gemmtune.pruning import (
    accumulator_registers,
    loader_gathers_rows,
    mode_rule,
    prune,
    shared_memory_bytes,
    split_columns,
    splits_tails,
)
from gemmtune.space import SearchSpace, SpaceError, enumerate_configs, get_kernel_configs, load_space

H100 = PRESETS["h100"]
QWEN_UP = Problem("fwd", 128, 4096, 1536, 2048, 8, permute="x")


def test_enumeration_is_the_product_of_the_value_lists():
    space = SearchSpace("t", {"BLOCK_SIZE_M": [64, 128], "num_warps": [4, 8], "num_stages": [3, 4, 5]})
    configs = enumerate_configs(space, QWEN_UP)
    assert len(configs) == 12 == space.size("fwd")
    assert len(set(configs)) == 12
    assert all(c.permute_x and not c.permute_y for c in configs)  # the permutation is the problem's


def test_knobs_of_other_modes_are_ignored():
    space = SearchSpace("t", {"use_tma_load_dy": [False, True], "SPLIT_M": [1, 2], "use_tma_load_x": [False, True]})
    fwd = enumerate_configs(space, QWEN_UP)
    dw = enumerate_configs(space, Problem("dw", 8, 64, 64, 64, 2))
    assert len(fwd) == 2 and all(type(c) is KernelConfigForward for c in fwd)
    assert len(dw) == 8 and all(type(c) is KernelConfigBackward_dW for c in dw)


@pytest.mark.parametrize("name", ["default", "quick", "exhaustive"])
def test_shipped_spaces_load(name):
    space = load_space(name)
    assert space.values["BLOCK_SIZE_M"]
    assert space.size("fwd") > 1


def test_default_space_matches_its_definition():
    space = load_space("default")
    assert space.for_mode("fwd")["BLOCK_SIZE_M"] == space.for_mode("dx")["BLOCK_SIZE_M"] == [64, 128, 256]
    assert space.for_mode("dw")["BLOCK_SIZE_M"] == [64, 128]
    assert space.values["BLOCK_SIZE_N"] == [64, 128, 256]
    assert space.values["BLOCK_SIZE_K"] == [64, 128, 256]
    assert space.values["num_warps"] == [4, 8]
    assert space.values["num_stages"] == [3, 4, 5]


@pytest.mark.parametrize(
    "toml, message",
    [
        ("BLOCK_SIZE_M = [64", "not valid TOML"),
        ("BLOCK_SZ = [64]", "unknown knob"),
        ("permute_x = [true]", "set by the problem"),
        ("BLOCK_SIZE_M = []", "empty value list"),
        ("BLOCK_SIZE_M = [0]", "positive whole numbers"),
        ("TAIL_ROWS = [-8]", "TAIL_ROWS takes whole numbers ≥ 0"),
        ("use_tma_load_w = [1]", "true/false"),
        ("[bwd]\nGROUP_SIZE_M = [8]", r"unknown table \[bwd\]; mode tables are \[fwd\], \[dx\], \[dw\]"),
        ("[fwd]\nuse_tma_load_dy = [true]", r"\[fwd\] sets use_tma_load_dy, which fwd configs do not have"),
        ("[dw]\nGROUP_SIZE_M = [0]", "GROUP_SIZE_M takes positive whole numbers"),
        ("[dw]\nBLOCK_SZ = [64]", "unknown knob 'BLOCK_SZ'"),
    ],
)
def test_bad_space_files_are_refused(tmp_path, toml, message):
    path = tmp_path / "bad.toml"
    path.write_text(toml)
    with pytest.raises(SpaceError, match=message):
        load_space(path)


def test_unknown_space_name():
    with pytest.raises(SpaceError, match="unknown space 'nope'"):
        load_space("nope")


def test_overrides_replace_value_lists():
    space = load_space("default").with_overrides({"BLOCK_SIZE_M": [32], "num_warps": [2, 4]})
    assert space.values["BLOCK_SIZE_M"] == [32] and space.values["num_warps"] == [2, 4]


def test_a_mode_table_replaces_lists_for_that_mode_only(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text("GROUP_SIZE_M = [8]\nnum_warps = [4, 8]\n\n[dw]\nGROUP_SIZE_M = [8, 16, 32]\n")
    space = load_space(path)
    dw = Problem("dw", 8, 64, 64, 64, 2)
    assert space.for_mode("dw") == {"GROUP_SIZE_M": [8, 16, 32], "num_warps": [4, 8]}
    assert space.for_mode("fwd") == {"GROUP_SIZE_M": [8], "num_warps": [4, 8]}
    assert sorted({c.GROUP_SIZE_M for c in enumerate_configs(space, dw)}) == [8, 16, 32]
    assert {c.GROUP_SIZE_M for c in enumerate_configs(space, QWEN_UP)} == {8}
    assert space.size("dw") == 6 and space.size("fwd") == 2 == len(enumerate_configs(space, QWEN_UP))


def test_an_override_replaces_a_knob_in_the_mode_tables_too(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text("GROUP_SIZE_M = [8]\n[dw]\nGROUP_SIZE_M = [8, 32]\nnum_stages = [3]\n")
    space = load_space(path).with_overrides({"GROUP_SIZE_M": [4]})
    assert space.for_mode("dw") == {"GROUP_SIZE_M": [4], "num_stages": [3]}


def test_the_default_space_groups_more_n_blocks_for_dw_only():
    space = load_space("default")
    assert space.for_mode("dw")["GROUP_SIZE_M"] == [8, 32]
    assert space.for_mode("fwd")["GROUP_SIZE_M"] == space.for_mode("dx")["GROUP_SIZE_M"] == [8]


# --- pruning rules -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "config, fragment",
    [
        (KernelConfigForward(permute_x=True, use_tma_load_x=True), "use_tma_load_x with permute_x"),
        (KernelConfigForward(permute_y=True, use_tma_store=True), "use_tma_store with permute_y"),
        (KernelConfigForward(permute_x=True, permute_y=True), "cannot both"),
        (KernelConfigForward(fuse_mul_post=True), "needs permute_y"),
        (KernelConfigBackward_dX(permute_y=True, fuse_mul_post=True), "only exists in the forward"),
        (KernelConfigBackward_dX(permute_y=True, use_tma_load_dy=True), "use_tma_load_dy with permute_y"),
        (KernelConfigBackward_dX(permute_x=True, use_tma_store=True), "use_tma_store with permute_x"),
        (KernelConfigBackward_dW(permute_y=True, use_tma_load_dy=True), "use_tma_load_dy with permute_y"),
        (KernelConfigBackward_dW(permute_x=True, use_tma_load_x=True), "use_tma_load_x with permute_x"),
        (KernelConfigForward(pregather=True, use_tma_load_x=True), "gathers no operand"),
        (KernelConfigForward(permute_y=True, pregather=True, use_tma_load_x=True), "gathers no operand"),
        (KernelConfigForward(permute_x=True, pregather=True), "pregather without use_tma_load_x"),
        (KernelConfigBackward_dW(permute_y=True, pregather=True, use_tma_load_x=True), "pregather without use_tma_load_dy"),
        (KernelConfigForward(permute_y=True, pregather=True, use_tma_store=True), "gathers no operand"),
    ],
)
def test_mode_rule_prunes_invalid_combinations(config, fragment):
    assert fragment in mode_rule(config)


@pytest.mark.parametrize(
    "config",
    [
        KernelConfigForward(permute_x=True, use_tma_load_w=True),  # W is never gathered
        KernelConfigForward(permute_y=True, fuse_mul_post=True, use_tma_load_x=True),
        KernelConfigBackward_dX(permute_x=True, use_tma_load_dy=True, use_tma_load_w=True),
        KernelConfigBackward_dW(permute_y=True, use_tma_load_x=True),
        KernelConfigForward(permute_x=True, pregather=True, use_tma_load_x=True),
        KernelConfigBackward_dX(permute_y=True, pregather=True, use_tma_load_dy=True),
        KernelConfigBackward_dW(permute_x=True, pregather=True, use_tma_load_x=True, use_tma_load_dy=True),
    ],
)
def test_mode_rule_keeps_valid_combinations(config):
    assert mode_rule(config) is None


SPLIT_384 = dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=384, warp_specialize=True)


@pytest.mark.parametrize(
    "config, fragment",
    [
        (KernelConfigForward(BLOCK_SIZE_M=96), "BLOCK_SIZE_M = 96: Triton and Gluon block shapes are powers of"),
        (KernelConfigForward(BLOCK_SIZE_K=48), "BLOCK_SIZE_K = 48"),
        (KernelConfigBackward_dX(BLOCK_SIZE_N=384, warp_specialize=True), "BLOCK_SIZE_N = 384"),  # dX's reduction
        (KernelConfigForward(BLOCK_SIZE_N=384), "only the Gluon forward and dX kernel"),
        (KernelConfigBackward_dW(BLOCK_SIZE_K=384, warp_specialize=True), "only the Gluon forward and dX kernel"),
        (KernelConfigForward(BLOCK_SIZE_N=320 + 32, warp_specialize=True), "the second must be a power of two"),
        (KernelConfigForward(BLOCK_SIZE_M=64, BLOCK_SIZE_N=384, warp_specialize=True), "128 rows or more"),
        (KernelConfigForward(**SPLIT_384, TAIL_ROWS=32), "no merged tail"),
        (KernelConfigForward(**SPLIT_384, use_tma_store=True), "no TMA store"),
        (KernelConfigForward(**SPLIT_384, permute_x=True), "pregathered"),
    ],
)
def test_block_shapes_are_powers_of_two_but_a_split_output_block(config, fragment):
    assert fragment in mode_rule(config)


@pytest.mark.parametrize("width, parts", [(256, (256, 0)), (192, (128, 64)), (320, (256, 64)), (384, (256, 128))])
def test_split_output_blocks_are_two_accumulators(width, parts):
    assert split_columns(width) == parts
    config = KernelConfigForward(BLOCK_SIZE_M=128, BLOCK_SIZE_N=width, warp_specialize=True, permute_x=True,
                                 pregather=True, use_tma_load_x=True)
    assert mode_rule(config) is None
    assert mode_rule(KernelConfigBackward_dX(BLOCK_SIZE_M=128, BLOCK_SIZE_K=width, warp_specialize=True)) is None


def _first_rule(config, problem=QWEN_UP, device=H100):
    kept, pruned = prune([config], problem, device)
    return pruned[0].rule if pruned else None


def test_shared_memory_formula_matches_the_measured_case():
    # 128×128×128 bf16 at 4 stages: 4·(128·128 + 128·128)·2 B (measured OutOfResources on the H200).
    config = KernelConfigForward(BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=128, num_stages=4)
    assert shared_memory_bytes(config, 2) == 262_144
    assert _first_rule(config) == "shared_memory"
    assert _first_rule(KernelConfigForward(BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=128, num_stages=3)) is None


def test_shared_memory_uses_each_modes_operand_tiles():
    dx = KernelConfigBackward_dX(BLOCK_SIZE_M=64, BLOCK_SIZE_N=32, BLOCK_SIZE_K=128, num_stages=2)
    dw = KernelConfigBackward_dW(BLOCK_SIZE_M=64, BLOCK_SIZE_N=32, BLOCK_SIZE_K=128, num_stages=2)
    assert shared_memory_bytes(dx, 2) == 2 * (64 * 32 + 32 * 128) * 2  # dY (M×N) and W (N×K)
    assert shared_memory_bytes(dw, 2) == 2 * (64 * 32 + 64 * 128) * 2 + 64 * 4  # dY (M×N), X (M×K), indices


def test_smaller_gpus_prune_more():
    config = KernelConfigForward(BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=64, num_stages=4)  # 128 KiB
    assert _first_rule(config, device=preset("h100")) is None
    assert _first_rule(config, device=preset("rtx4090")) == "shared_memory"


def test_register_rule():
    config = KernelConfigForward(BLOCK_SIZE_M=256, BLOCK_SIZE_N=256, BLOCK_SIZE_K=16, num_warps=4, num_stages=1)
    assert accumulator_registers(config) == 512
    assert _first_rule(config, Problem("fwd", 8, 4096, 4096, 4096, 2)) == "registers"
    # 256·256 / (32·8) = 256: one over the limit even with 8 warps; 256·128 / (32·8) = 128 fits.
    big = Problem("fwd", 8, 4096, 4096, 4096, 2)
    assert _first_rule(KernelConfigForward(BLOCK_SIZE_M=256, BLOCK_SIZE_N=256, BLOCK_SIZE_K=16, num_warps=8, num_stages=1), big) == "registers"
    assert _first_rule(KernelConfigForward(BLOCK_SIZE_M=256, BLOCK_SIZE_N=128, BLOCK_SIZE_K=16, num_warps=8, num_stages=1), big) is None


def test_tma_needs_hopper_and_aligned_rows():
    config = KernelConfigForward(use_tma_load_w=True)
    assert _first_rule(config, device=preset("a100")) == "device"
    assert _first_rule(config, Problem("fwd", 8, 64, 128, 100, 2)) == "tma_alignment"  # 100·2 B rows
    assert _first_rule(config, Problem("fwd", 8, 64, 128, 2880, 2)) is None  # 5760 B rows


def test_warp_specialization_rules_per_architecture():
    config = KernelConfigForward(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, num_warps=8, warp_specialize=True,
                                 use_tma_load_x=True, use_tma_load_w=True)
    assert _first_rule(config, device=preset("a100")) == "device"
    assert _first_rule(config, device=preset("h100")) is None  # the Gluon kernel
    assert _first_rule(config, device=preset("b200")) is None  # tl.range(warp_specialize=True)
    # What the Gluon kernel does not do on Hopper; Blackwell's tl.range path has no such limits.
    for other in (dict(use_tma_load_x=False), dict(half_tail=True),
                  dict(BLOCK_SIZE_M=32), dict(num_warps=2), dict(flatten=True)):
        limited = dataclasses.replace(config, **other)
        assert _first_rule(limited, device=preset("h100")) == "device", other
        assert _first_rule(limited, device=preset("b200")) != "device", other
    # Under permute_x, X is pregathered for TMA or, without pregather, gathered by the loader's 16-byte cp.async.
    routed = Problem("fwd", 8, 1024, 1024, 256, 2, permute="x")
    loader_gather = dataclasses.replace(config, permute_x=True, use_tma_load_x=False)
    assert _first_rule(loader_gather, routed, device=preset("h100")) is None
    assert _first_rule(dataclasses.replace(loader_gather, use_tma_load_w=False), routed, device=preset("h100")) == "device"
    assert _first_rule(loader_gather, dataclasses.replace(routed, K=260), device=preset("h100")) == "device"  # 520 B rows
    # The loader warpgroup's scratch beside the ring that pregather would fill by TMA instead.
    pregathered = dataclasses.replace(loader_gather, pregather=True, use_tma_load_x=True)
    assert shared_memory_bytes(loader_gather, 2) == shared_memory_bytes(pregathered, 2) + 128
    # dX runs on the forward's Gluon kernel, with dY's rows routed like X's there (permute_y).
    dx = KernelConfigBackward_dX(BLOCK_SIZE_M=128, num_warps=8, warp_specialize=True, use_tma_load_dy=True,
                                 use_tma_load_w=True)
    assert _first_rule(dx, device=preset("h100")) is None
    dx_routed = Problem("dx", 8, 1024, 1024, 256, 2, permute="y")
    dx_gather = dataclasses.replace(dx, permute_y=True, use_tma_load_dy=False)
    assert loader_gathers_rows(dx_gather) and not loader_gathers_rows(dataclasses.replace(dx_gather, permute_y=False))
    assert _first_rule(dx_gather, dx_routed, device=preset("h100")) is None
    assert _first_rule(dx_gather, dataclasses.replace(dx_routed, N=260), device=preset("h100")) == "device"
    assert _first_rule(dataclasses.replace(dx, half_tail=True), device=preset("h100")) == "device"
    # dW's Gluon kernel: TMA on dY and X, 64 or more accumulator rows (BLOCK_SIZE_N there), no SPLIT_M.
    dw = KernelConfigBackward_dW(BLOCK_SIZE_M=64, BLOCK_SIZE_N=128, BLOCK_SIZE_K=256, num_warps=8,
                                 warp_specialize=True, use_tma_load_dy=True, use_tma_load_x=True)
    assert _first_rule(dw, device=preset("h100")) is None
    for other in (dict(use_tma_load_dy=False), dict(BLOCK_SIZE_N=32), dict(SPLIT_M=2), dict(num_warps=2)):
        assert _first_rule(dataclasses.replace(dw, **other), device=preset("h100")) == "device", other
    fp32 = Problem("dw", 8, 64, 128, 256, 2, dtype="fp32")  # tf32 wgmma takes no transposed operand
    assert _first_rule(dw, fp32, device=preset("h100")) == "device"
    assert _first_rule(dw, dataclasses.replace(fp32, dtype="bf16"), device=preset("h100")) is None
    # Two mbarriers per stage (a slot's TMA arrival, its release by the MMA warps), the partitions' scratch,
    # and per warp its 16 rows of 64 bf16 (a 128-byte line each) through which the tile's register store
    # becomes whole lines (sass_report, sm_90: the same 2 KB per warp).
    assert shared_memory_bytes(config, 2) == 3 * (128 + 256) * 64 * 2 + 3 * 2 * 8 + 160 + 16 * 64 * 2 * 8


def test_merged_tail_rules_and_resources():
    config = KernelConfigForward(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, num_warps=8, num_stages=3, warp_specialize=True,
                                 use_tma_load_x=True, use_tma_load_w=True, TAIL_ROWS=32)
    assert _first_rule(config, device=preset("h100")) is None
    assert _first_rule(dataclasses.replace(config, warp_specialize=False)) == "mode"  # only the Gluon kernel
    for rows in (4, 24, 128):  # the wgmma's N, a power of two, below BLOCK_SIZE_M
        assert _first_rule(dataclasses.replace(config, TAIL_ROWS=rows), device=preset("h100")) == "mode", rows
    assert _first_rule(config, device=preset("b200")) == "device"  # tl.range's kernel has no merged tail
    # 128·256 + 256·64 accumulator elements over 256 threads: 192 registers, which spill (sass_report).
    assert _first_rule(dataclasses.replace(config, TAIL_ROWS=64), device=preset("h100")) == "device"
    # BLOCK_SIZE_N 64 over 8 warps: two warpgroups side by side, each a tail wgmma of TAIL_ROWS / 2 columns.
    narrow = dataclasses.replace(config, BLOCK_SIZE_N=64)
    assert _first_rule(dataclasses.replace(narrow, TAIL_ROWS=8), device=preset("h100")) == "device"
    assert _first_rule(dataclasses.replace(narrow, TAIL_ROWS=16), device=preset("h100")) is None
    assert _first_rule(dataclasses.replace(narrow, TAIL_ROWS=8, num_warps=4), device=preset("h100")) is None
    assert accumulator_registers(config) == (128 * 256 + 256 * 32) // 256
    # Each stage also holds the tail's TAIL_ROWS × BLOCK_SIZE_K block of X.
    assert shared_memory_bytes(config, 2) == 3 * (128 + 256 + 32) * 64 * 2 + 3 * 2 * 8 + 160 + 2048 * 8
    assert config.to_string() == "fwd BM128 BN256 BK64 G8 w8 s3 tail32 tma[w,x] warp_specialize"
    assert load_space("default").with_overrides({"TAIL_ROWS": [0, 32]}).values["TAIL_ROWS"] == [0, 32]  # 0: off


def test_dynamic_schedule_rules_and_resources():
    config = KernelConfigForward(BLOCK_SIZE_M=256, BLOCK_SIZE_N=128, num_warps=8, num_stages=4, warp_specialize=True,
                                 use_tma_load_x=True, use_tma_load_w=True, TAIL_ROWS=32, dynamic_schedule=True)
    assert _first_rule(config, device=preset("h100")) is None
    assert _first_rule(dataclasses.replace(config, warp_specialize=False, TAIL_ROWS=0)) == "mode"  # Gluon only
    # tl.range's kernel takes its tiles by stride
    assert _first_rule(dataclasses.replace(config, TAIL_ROWS=0), device=preset("b200")) == "device"
    # The tile ids' ring entries and the claim's broadcast: 128 B of shared memory beyond the static kernel.
    static = dataclasses.replace(config, dynamic_schedule=False)
    assert shared_memory_bytes(config, 2) == shared_memory_bytes(static, 2) + 128
    assert config.to_string() == "fwd BM256 BN128 BK64 G8 w8 s4 tail32 tma[w,x] dynamic_schedule warp_specialize"


def test_split_tail_needs_a_merged_tail_and_a_long_reduction():
    dx = KernelConfigBackward_dX(BLOCK_SIZE_M=128, BLOCK_SIZE_N=64, BLOCK_SIZE_K=256, num_warps=8, num_stages=3,
                                 warp_specialize=True, use_tma_load_dy=True, use_tma_load_w=True, TAIL_ROWS=32,
                                 split_tail=True)
    gate_up = Problem("dx", 8, 4096, 28672, 4096, 2, permute="x")  # mixtral's dX gate_up: 448 steps of N
    assert _first_rule(dx, gate_up, preset("h200")) is None
    assert _first_rule(dataclasses.replace(dx, TAIL_ROWS=0), gate_up) == "mode"  # nothing to split
    assert _first_rule(dx, gate_up, preset("b200")) == "device"  # the Hopper Gluon kernel only
    # Under TAIL_SPLIT_STEPS = 128 steps the launch runs the carried tail's kernel: the config without split_tail.
    assert splits_tails(dx, 28672, 4096)
    assert not splits_tails(dx, 127 * 64, 4096) and splits_tails(dx, 127 * 64 + 1, 4096)
    down = Problem("dx", 8, 4096, 4096, 14336, 2, permute="x")  # 64 steps of N
    assert _first_rule(dx, down, preset("h200")) == "problem_size"
    assert _first_rule(dataclasses.replace(dx, split_tail=False), down, preset("h200")) is None
    # Its sums live in global memory: the same shared memory and registers as the tail it splits.
    carried = dataclasses.replace(dx, split_tail=False)
    assert shared_memory_bytes(dx, 2) == shared_memory_bytes(carried, 2)
    assert accumulator_registers(dx) == accumulator_registers(carried)
    assert dx.to_string() == "dx BM128 BN64 BK256 G8 w8 s3 tail32 tma[dy,w] split_tail warp_specialize"


def test_column_tail_needs_a_merged_tail_and_half_blocks_of_one_wgmma_slab():
    config = KernelConfigForward(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, num_warps=8, num_stages=3, warp_specialize=True,
                                 use_tma_load_x=True, use_tma_load_w=True, TAIL_ROWS=32, column_tail=True)
    assert _first_rule(config, device=preset("h200")) is None
    assert _first_rule(dataclasses.replace(config, TAIL_ROWS=0)) == "mode"  # no tail to split
    assert _first_rule(dataclasses.replace(config, split_tail=True)) == "mode"  # one way of sharing a tail
    assert _first_rule(config, device=preset("b200")) == "device"  # the Hopper Gluon kernel only
    # Half of a 128-column block over 8 warps: two warpgroups side by side, each a wgmma of TAIL_ROWS / 2 columns,
    # so at 16 rows a tail of 8 columns; at 8 rows 4, below the PTX minimum. Half of 64 columns is below a slab.
    narrow = dataclasses.replace(config, BLOCK_SIZE_M=256, BLOCK_SIZE_N=128, num_stages=4)
    assert _first_rule(dataclasses.replace(narrow, TAIL_ROWS=16), device=preset("h200")) is None
    assert _first_rule(dataclasses.replace(narrow, TAIL_ROWS=8), device=preset("h200")) == "device"
    assert _first_rule(dataclasses.replace(narrow, BLOCK_SIZE_N=64), device=preset("h200")) == "device"
    dx = KernelConfigBackward_dX(BLOCK_SIZE_M=128, BLOCK_SIZE_N=64, BLOCK_SIZE_K=256, num_warps=8, num_stages=3,
                                 warp_specialize=True, use_tma_load_dy=True, use_tma_load_w=True, TAIL_ROWS=32,
                                 column_tail=True)
    assert _first_rule(dx, device=preset("h200")) is None  # dX's output block is BLOCK_SIZE_K
    assert _first_rule(dataclasses.replace(dx, BLOCK_SIZE_K=64), device=preset("h200")) == "device"
    # Half the tail's accumulator in a tile: no more shared memory or registers than the carried tail.
    carried = dataclasses.replace(config, column_tail=False)
    assert shared_memory_bytes(config, 2) == shared_memory_bytes(carried, 2)
    assert config.to_string() == "fwd BM128 BN256 BK64 G8 w8 s3 tail32 tma[w,x] column_tail warp_specialize"


def test_dx_merged_tail_has_the_output_columns_of_dx():
    # dX's tile is BLOCK_SIZE_M × BLOCK_SIZE_K (K the output) over BLOCK_SIZE_N steps of the reduction (N),
    # so the merged tail's accumulator is BLOCK_SIZE_K × TAIL_ROWS and each stage holds a TAIL_ROWS ×
    # BLOCK_SIZE_N block of dY.
    dx = KernelConfigBackward_dX(BLOCK_SIZE_M=128, BLOCK_SIZE_N=64, BLOCK_SIZE_K=256, num_warps=8, num_stages=3,
                                 warp_specialize=True, use_tma_load_dy=True, use_tma_load_w=True, TAIL_ROWS=32,
                                 dynamic_schedule=True)
    assert _first_rule(dx, device=preset("h100")) is None
    assert accumulator_registers(dx) == (128 * 256 + 256 * 32) // 256
    assert shared_memory_bytes(dx, 2) == 3 * (128 * 64 + 64 * 256 + 32 * 64) * 2 + 3 * 2 * 8 + 160 + 2048 * 8 + 128
    assert _first_rule(dataclasses.replace(dx, TAIL_ROWS=64), device=preset("h100")) == "device"  # 192 registers
    # The tail's wgmma spreads BLOCK_SIZE_K rows (not BLOCK_SIZE_N) over the warps: 64 rows over 8 warps put two
    # warpgroups side by side, each a wgmma of TAIL_ROWS / 2 columns, below the PTX minimum of 8 for 8 rows.
    assert _first_rule(dataclasses.replace(dx, TAIL_ROWS=8), device=preset("h100")) is None
    assert _first_rule(dataclasses.replace(dx, TAIL_ROWS=8, BLOCK_SIZE_K=64), device=preset("h100")) == "device"
    assert _first_rule(dataclasses.replace(dx, warp_specialize=False, dynamic_schedule=False)) == "mode"
    assert dx.to_string() == "dx BM128 BN64 BK256 G8 w8 s3 tail32 tma[dy,w] dynamic_schedule warp_specialize"


def test_half_tail_rules_and_its_staged_store():
    assert _first_rule(KernelConfigForward(BLOCK_SIZE_M=16, half_tail=True)) == "mode"
    assert _first_rule(KernelConfigForward(BLOCK_SIZE_M=128, half_tail=True, flatten=True)) == "mode"
    assert _first_rule(KernelConfigBackward_dX(BLOCK_SIZE_M=128, half_tail=True)) is None
    # The half tile's TMA store stages its own buffer: Triton reported 245,784 B for this config on sm_90.
    config = KernelConfigForward(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64, num_stages=3,
                                 use_tma_load_w=True, use_tma_store=True, half_tail=True)
    assert shared_memory_bytes(config, 2) == 3 * (128 + 256) * 64 * 2 + 128 * 256 * 2 * 3 // 2 + 3 * 8
    assert _first_rule(config) == "shared_memory"


def test_problem_size_rule():
    small = Problem("fwd", 4, 16, 40, 48, 2)  # 32 rows, N 40 → 64, K 48 → 64
    assert _first_rule(KernelConfigForward(BLOCK_SIZE_M=64, BLOCK_SIZE_N=64, BLOCK_SIZE_K=64), small) == "problem_size"
    assert _first_rule(KernelConfigForward(BLOCK_SIZE_M=32, BLOCK_SIZE_N=64, BLOCK_SIZE_K=64), small) is None


def test_get_kernel_configs_keeps_a_reason_for_every_pruned_config():
    pruned = get_kernel_configs(QWEN_UP, H100, "default")
    assert pruned.total == load_space("default").size("fwd")
    assert pruned.kept and pruned.pruned
    assert all(p.reason for p in pruned.pruned)
    assert sum(pruned.counts_by_rule().values()) == len(pruned.pruned)
    # Among power-of-two output blocks under permute_x: half the space asks TMA to load a gathered X (or
    # pregathers without TMA). Of the other half, the configs without warp_specialize that have TAIL_ROWS 32,
    # dynamic_schedule, split_tail or column_tail (15 of 16 there) are refused too, for only the Gluon kernel merges
    # tails and claims tiles, and with it those with split_tail or column_tail but no TAIL_ROWS (6 of 8) and with
    # both (2 of 8): 23 of 32.
    whole = [p for p in pruned.pruned if not split_columns(p.config.BLOCK_SIZE_N)[1]]
    whole_total = len(whole) + sum(not split_columns(c.BLOCK_SIZE_N)[1] for c in pruned.kept)
    assert sum(p.rule == "mode" for p in whole) == whole_total // 2 + 23 * whole_total // 64
    # Qwen3's K = 2048 makes at most 32 K steps, too few to split a tail: split_tail would run the carried kernel.
    assert not [c for c in pruned.kept if c.split_tail]
    assert any(p.rule == "problem_size" and p.config.split_tail for p in pruned.pruned)
    # The split blocks (320, 384) run only without merged tails, TMA store or loader gather, at 128 rows or more,
    # in the Gluon kernel.
    kept_split = [c for c in pruned.kept if split_columns(c.BLOCK_SIZE_N)[1]]
    assert kept_split and all(c.warp_specialize and c.BLOCK_SIZE_M >= 128 and not c.TAIL_ROWS for c in kept_split)
    assert all(shared_memory_bytes(c, 2) <= H100.SIZE_SMEM for c in pruned.kept)


@pytest.mark.parametrize("text, modes", [("fwd", ["fwd"]), ("dX", ["dx"]), ("fwd,dx,dW", ["fwd", "dx", "dw"]), ("DW,dw", ["dw"])])
def test_parse_modes(text, modes):
    assert parse_modes(text) == modes


def test_parse_modes_refuses_unknown():
    with pytest.raises(ValueError, match="unknown mode 'bwd'"):
        parse_modes("fwd,bwd")


def test_flatten_reserves_the_epilogue_scratch():
    # Measured on the H200 (results/h200/levers.parquet): BM128 BN256 BK64 s3 with a TMA store needs
    # 245,784 B flattened, 213,016 B not; the estimate must cover it so the config never reaches the GPU.
    plain = KernelConfigForward(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64, num_warps=8, num_stages=3,
                                use_tma_load_w=True, use_tma_store=True)
    flat = KernelConfigForward(**{**plain.to_dict(), "flatten": True})
    assert shared_memory_bytes(plain, 2) == 213_016
    assert shared_memory_bytes(flat, 2) >= 245_784
    assert _first_rule(flat, Problem("fwd", 16, 4096, 16384, 5120, 1, permute="x")) == "shared_memory"
