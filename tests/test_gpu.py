"""GPU-only checks (marked `gpu`, skipped without CUDA): run them on the H200 with `pytest -m gpu`.

- Shared memory: for every config of the default space that pruning keeps, Triton's reported shared
  memory after compiling is at most the predicted amount, so no config reaching the GPU fails with
  OutOfResources; for the plain forward kernel the prediction is exact.
- Correctness at real sizes: DeepSeek-V3's gate_up weight has 256·4096·7168 = 7.5e9 elements (64-bit
  offsets), gpt-oss has K = 2880 (not a multiple of BLOCK_SIZE_K = 128).
- The Gluon warp-specialized forward and dW kernels (Hopper), and dX on the forward's: the same real sizes
  plus empty experts, N and K tails, one and two warpgroups, each epilogue, merged tails (TAIL_ROWS), the
  routed operand pregathered or gathered by the loader, static and dynamic tile schedules; Triton's reported
  shared memory within the prediction.
"""

import concurrent.futures as cf
import multiprocessing as mp

import pytest
import torch

from gemmtune import pruning
from gemmtune.config import config_class
from gemmtune.device import active_device
from gemmtune.kernels import Launcher
from gemmtune.engine.compile import meta_inputs
from gemmtune.problem import Problem, make_inputs
from gemmtune.pruning import prune, shared_memory_bytes
from gemmtune.reference import TOLERANCE, reference
from gemmtune.runner import check_output
from gemmtune.space import get_kernel_configs

pytestmark = pytest.mark.gpu

QWEN = [
    Problem("fwd", 128, 4096, 1536, 2048, 8, permute="x"),
    Problem("fwd", 128, 4096, 2048, 768, 8, permute="y"),
    Problem("dx", 128, 4096, 1536, 2048, 8, permute="x"),
    Problem("dx", 128, 4096, 2048, 768, 8, permute="y"),
    Problem("dw", 128, 4096, 1536, 2048, 8, permute="x"),
    Problem("dw", 128, 4096, 2048, 768, 8, permute="y"),
]


def reported_shared_memory(job):
    problem, config = job
    return Launcher(problem, meta_inputs(problem), config).compile().metadata.shared


@pytest.mark.parametrize("problem", QWEN, ids=lambda p: f"{p.mode}-permute_{p.permute}")
def test_predicted_shared_memory_bounds_what_triton_reports(problem):
    configs = get_kernel_configs(problem, active_device(), "default").kept
    jobs = [(problem, c) for c in configs]
    with cf.ProcessPoolExecutor(16, mp_context=mp.get_context("spawn")) as pool:
        reported = list(pool.map(reported_shared_memory, jobs, chunksize=4))
    predicted = [shared_memory_bytes(c, problem.element_size) for c in configs]
    under = [(c.to_string(), p, r) for c, p, r in zip(configs, predicted, reported) if r > p]
    assert not under, under[:5]
    assert all(r <= active_device().SIZE_SMEM for r in reported)
    if problem.mode == "fwd":  # exact for the plain kernel; the Gluon kernel's scratch is an upper bound
        plain = [(p, r) for c, p, r in zip(configs, predicted, reported) if not c.warp_specialize]
        assert all(p == r for p, r in plain), plain


CORRECTNESS = [
    Problem("fwd", 256, 4096, 4096, 7168, 8, permute="x"),  # DeepSeek-V3 gate_up: W past 2^31 elements
    Problem("dx", 256, 4096, 4096, 7168, 8, permute="x"),
    Problem("dw", 256, 1024, 4096, 7168, 8, permute="x"),  # dW (E, N, K) past 2^31 elements
    Problem("fwd", 32, 512, 5760, 2880, 4, permute="x"),  # gpt-oss: K = 2880
    Problem("dx", 32, 512, 2880, 2880, 4, permute="y"),
    Problem("dw", 32, 512, 2880, 2880, 4, permute="y"),
    Problem("fwd", 64, 16, 192, 160, 2, routing="zipf:1.5"),  # many empty experts
]


@pytest.mark.parametrize("problem", CORRECTNESS, ids=lambda p: p.describe())
@pytest.mark.parametrize("block_k", [64, 128])
def test_real_sizes_are_correct(problem, block_k):
    inputs = make_inputs(problem, "cuda")
    config = config_class(problem.mode)(BLOCK_SIZE_M=64, BLOCK_SIZE_N=128, BLOCK_SIZE_K=block_k, num_warps=8,
                                        num_stages=3, permute_x=problem.permute_x, permute_y=problem.permute_y)
    launcher = Launcher(problem, inputs, config)
    checked = check_output(launcher, launcher.out, reference(problem, inputs), problem.dtype)
    assert checked.status == "ok" and checked.rel_err <= TOLERANCE[problem.dtype], checked


WARP_SPECIALIZED = [
    # (problem, BLOCK_SIZE_M, BLOCK_SIZE_N, num_warps, num_stages); the Gluon kernel of gemmtune.kernels.fwd_ws
    (Problem("fwd", 256, 4096, 4096, 7168, 8, permute="x"), 128, 256, 8, 3),  # W past 2^31 elements
    (Problem("fwd", 32, 512, 5760, 2880, 4, permute="x"), 128, 128, 8, 4),  # K = 2880: a K tail
    (Problem("fwd", 8, 1024, 4096, 1408, 2, permute="y"), 64, 256, 8, 3),  # two warpgroups side by side in N
    (Problem("fwd", 64, 64, 200, 160, 2, routing="zipf:1.5"), 64, 128, 4, 3),  # empty experts, N tail
    (Problem("fwd", 16, 300, 1000, 512, 4, permute="y"), 128, 128, 4, 5),  # one warpgroup, two M halves
]


EPILOGUES = {"registers": {}, "tma_store": dict(use_tma_store=True), "fuse_mul_post": dict(fuse_mul_post=True)}
# Under permute_x, X comes into expert order by a copy ahead of the kernel (pregather, then TMA), or is
# gathered row by row by the loader's cp.async (no pregather, no TMA on X).
X_ROUTES = ["pregather", "loader_gather"]
# The forward's tile order: every NUM_SMS-th tile per program, or claimed from an atomic counter.
SCHEDULES = {"static": {}, "dynamic": dict(dynamic_schedule=True)}


def x_route(problem, route: str) -> dict:
    """The forward config fields that route X as `route` says; skips the test where there is no routed X."""
    if route == "loader_gather" and not problem.permute_x:
        pytest.skip("X is not gathered: nothing for the loader to gather")
    pregather = problem.permute_x and route == "pregather"
    return dict(use_tma_load_x=pregather or not problem.permute_x, pregather=pregather)


def merged_tails(m_sizes, block_m: int, tail_rows: int) -> int:
    """How many experts have a last partial block of at most tail_rows rows after a full one: the tails the
    Gluon kernel merges (gemmtune.kernels.hopper_ws.m_blocks)."""
    return int(((m_sizes % block_m > 0) & (m_sizes % block_m <= tail_rows) & (m_sizes > block_m)).sum())


def assert_correct_within_predicted_smem(problem, inputs, config) -> Launcher:
    """Launch `config` on `inputs`: its output within the dtype's tolerance of the fp32 reference, and Triton's
    reported shared memory within pruning's prediction. Returns the launcher (its compiled kernel)."""
    launcher = Launcher(problem, inputs, config)
    ref = reference(problem, inputs, config.fuse_mul_post)
    checked = check_output(launcher, launcher.out, ref, problem.dtype)
    assert checked.status == "ok" and checked.rel_err <= TOLERANCE[problem.dtype], checked
    assert launcher.compiled.metadata.shared <= shared_memory_bytes(config, problem.element_size)
    return launcher


@pytest.mark.parametrize("problem, bm, bn, warps, stages", WARP_SPECIALIZED,
                         ids=[p.describe() for p, *_ in WARP_SPECIALIZED])
@pytest.mark.parametrize("epilogue", EPILOGUES)
@pytest.mark.parametrize("route", X_ROUTES)
@pytest.mark.parametrize("schedule", SCHEDULES)
def test_warp_specialized_forward_is_correct(problem, bm, bn, warps, stages, epilogue, route, schedule):
    config = config_class("fwd")(BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=64, num_warps=warps, num_stages=stages,
                                 permute_x=problem.permute_x, permute_y=problem.permute_y, use_tma_load_w=True,
                                 warp_specialize=True, **x_route(problem, route), **EPILOGUES[epilogue],
                                 **SCHEDULES[schedule])
    kept, pruned = prune([config], problem, active_device())
    if pruned:
        pytest.skip(pruned[0].reason)  # a TMA store under permute_y, or fuse_mul_post without it
    launcher = assert_correct_within_predicted_smem(problem, make_inputs(problem, "cuda"), config)
    assert launcher.compiled.name == "grouped_gemm_ws_kernel"  # the Gluon kernel, not tl.range's


MERGED_TAIL = [
    # (problem, BLOCK_SIZE_M, BLOCK_SIZE_N, num_warps, TAIL_ROWS): gemmtune.kernels.fwd_ws with experts whose
    # last rows (at most TAIL_ROWS past a full block) are computed by the block before them
    (Problem("fwd", 256, 4096, 4096, 7168, 8, permute="x"), 128, 256, 8, 32),  # W past 2^31 elements
    (Problem("fwd", 16, 4096, 1000, 512, 1, permute="x"), 128, 256, 8, 32),  # 256 ± 16 rows per expert, N tail
    (Problem("fwd", 8, 1100, 4096, 1408, 2, permute="y"), 64, 128, 4, 16),  # one warpgroup, scattered store
    (Problem("fwd", 64, 256, 200, 160, 2, routing="zipf:1.5"), 64, 128, 8, 32),  # empty experts, N tail
    (Problem("fwd", 32, 2048, 5760, 2880, 4, permute="x"), 128, 128, 8, 64),  # K tail, 64-row tails
    (Problem("fwd", 8, 512, 4096, 1408, 2, permute="y"), 128, 128, 4, 32),  # 128-row tiles in one warpgroup
    (Problem("fwd", 16, 4096, 1000, 512, 1, permute="y"), 256, 128, 8, 32),  # 256-row tiles, scattered, N tail
]


@pytest.mark.parametrize("problem, bm, bn, warps, tail_rows", MERGED_TAIL, ids=[p.describe() for p, *_ in MERGED_TAIL])
@pytest.mark.parametrize("epilogue", EPILOGUES)
@pytest.mark.parametrize("route", X_ROUTES)
@pytest.mark.parametrize("schedule", SCHEDULES)
def test_merged_tail_forward_is_correct(problem, bm, bn, warps, tail_rows, epilogue, route, schedule):
    config = config_class("fwd")(BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=64, num_warps=warps, num_stages=3,
                                 permute_x=problem.permute_x, permute_y=problem.permute_y, use_tma_load_w=True,
                                 warp_specialize=True, TAIL_ROWS=tail_rows, **x_route(problem, route),
                                 **EPILOGUES[epilogue], **SCHEDULES[schedule])
    kept, pruned = prune([config], problem, active_device())
    if pruned:
        pytest.skip(pruned[0].reason)
    inputs = make_inputs(problem, "cuda")
    assert merged_tails(inputs.m_sizes, bm, tail_rows) > 0, \
        "no expert has a tail to merge: the case does not test the tail path"
    assert_correct_within_predicted_smem(problem, inputs, config)


def routed_tail_config(problem, bm, block_out, block_reduction, route, schedule, num_warps=8, **tail):
    """The Gluon forward or dX config of the merged-tail tests: 3 stages, W by TMA, the routed operand (X in the
    forward, dY in dX) pregathered or gathered by the loader as `route` says (skipping the test where nothing is
    routed), the output and reduction blocks in the mode's fields, `schedule`, and the tail knobs `tail`."""
    routed = problem.permute_x if problem.mode == "fwd" else problem.permute_y
    if route == "loader_gather" and not routed:
        pytest.skip("the routed operand is not gathered: nothing for the loader to gather")
    pregather = routed and route == "pregather"
    if problem.mode == "fwd":
        blocks = dict(BLOCK_SIZE_N=block_out, BLOCK_SIZE_K=block_reduction, use_tma_load_x=pregather or not routed,
                      fuse_mul_post=problem.permute_y)
    else:
        blocks = dict(BLOCK_SIZE_N=block_reduction, BLOCK_SIZE_K=block_out, use_tma_load_dy=pregather or not routed)
    return config_class(problem.mode)(BLOCK_SIZE_M=bm, num_warps=num_warps, num_stages=3, permute_x=problem.permute_x,
                                      permute_y=problem.permute_y, use_tma_load_w=True, pregather=pregather,
                                      warp_specialize=True, **blocks, **tail, **SCHEDULES[schedule])


COLUMN_TAIL = [
    # (problem, BLOCK_SIZE_M, output block, num_warps, TAIL_ROWS): merged tails split by columns over the tiles of
    # their expert's last two blocks (column_tail), beside experts of one block that carry theirs whole.
    (Problem("fwd", 16, 4096, 1000, 512, 1, permute="x"), 128, 256, 8, 32),  # 256 ± 16 rows per expert, N tail
    (Problem("fwd", 8, 1100, 4096, 1408, 2, permute="y"), 64, 128, 4, 16),  # one warpgroup, scattered store
    (Problem("fwd", 64, 512, 200, 160, 2, routing="zipf:1.2"), 64, 128, 8, 32),  # empty experts, halves side by side
    (Problem("dx", 16, 4096, 512, 1000, 1, permute="x"), 128, 256, 8, 32),  # scattered dX, K tail
    (Problem("dx", 8, 2100, 1408, 512, 2, permute="y"), 128, 128, 8, 32),  # dY routed
]


@pytest.mark.parametrize("problem, bm, block_out, warps, tail_rows", COLUMN_TAIL,
                         ids=[p.describe() for p, *_ in COLUMN_TAIL])
@pytest.mark.parametrize("route", X_ROUTES)
@pytest.mark.parametrize("schedule", SCHEDULES)
def test_column_tail_is_correct(problem, bm, block_out, warps, tail_rows, route, schedule):
    config = routed_tail_config(problem, bm, block_out, 64, route, schedule, warps, TAIL_ROWS=tail_rows,
                                column_tail=True)
    kept, pruned = prune([config], problem, active_device())
    assert not pruned, pruned
    inputs = make_inputs(problem, "cuda")
    # Experts of two full blocks or more split their tails by columns; one of one full block carries it whole.
    two_blocks = inputs.m_sizes[inputs.m_sizes > 2 * bm]
    assert merged_tails(two_blocks, bm, tail_rows) > 0, "no expert's tail is split by columns"
    assert_correct_within_predicted_smem(problem, inputs, config)


SPLIT_TAIL = [
    # (problem, BLOCK_SIZE_M, output block, reduction block, TAIL_ROWS): merged tails split over the K steps of
    # their expert's tiles in a column (split_tail), the fp32 sums added up across them. Split on any reduction
    # (split_steps 1), and at the shipped TAIL_SPLIT_STEPS, where only the first case's 128 K steps split the tail
    # and the others carry it whole in the last block's tile.
    (Problem("fwd", 8, 4128, 1000, 8192, 2, permute="x"), 128, 256, 64, 32),  # 8 blocks share a tail, N tail
    (Problem("fwd", 8, 2048, 1000, 160, 2, permute="y"), 128, 128, 64, 32),  # 3 K steps over 4 shares: some none
    (Problem("fwd", 16, 4096, 1000, 512, 1, permute="x"), 256, 128, 64, 32),  # one block per expert: one share
    (Problem("dx", 8, 4128, 2880, 1000, 2, permute="x"), 128, 256, 64, 16),  # scattered dX, K tail
    (Problem("dx", 8, 4128, 1408, 512, 2, permute="y"), 128, 256, 64, 32),  # dY routed
]


@pytest.mark.parametrize("problem, bm, block_out, block_reduction, tail_rows", SPLIT_TAIL,
                         ids=[p.describe() for p, *_ in SPLIT_TAIL])
@pytest.mark.parametrize("route", X_ROUTES)
@pytest.mark.parametrize("schedule", SCHEDULES)
@pytest.mark.parametrize("split_steps", [1, "shipped"])
def test_split_tail_is_correct(problem, bm, block_out, block_reduction, tail_rows, route, schedule, split_steps,
                               monkeypatch):
    if split_steps != "shipped":
        monkeypatch.setattr(pruning, "TAIL_SPLIT_STEPS", split_steps)
    config = routed_tail_config(problem, bm, block_out, block_reduction, route, schedule, TAIL_ROWS=tail_rows,
                                split_tail=True)
    kept, pruned = prune([config], problem, active_device())
    split = pruning.splits_tails(config, problem.N, problem.K)
    # A reduction too short to split runs the carried tail's kernel: a sweep leaves the config out as that one.
    assert [p.rule for p in pruned] == ([] if split else ["problem_size"]), pruned
    inputs = make_inputs(problem, "cuda")
    assert merged_tails(inputs.m_sizes, bm, tail_rows) > 0, "no expert has a tail to merge"
    launcher = assert_correct_within_predicted_smem(problem, inputs, config)
    if not split:  # the tail carried whole: no fp32 adds in arrival order
        first = launcher.out.clone()
        launcher()
        assert torch.equal(launcher.out, first), "a tail stored whole is the same bits from launch to launch"


WARP_SPECIALIZED_DX = [
    # (problem, BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, num_warps, TAIL_ROWS); dX on the forward's Gluon kernel
    # (gemmtune.kernels.fwd_ws.launch_ws): BLOCK_SIZE_N steps through the reduction (N), BLOCK_SIZE_K is
    # the tile's width in the output (K)
    (Problem("dx", 256, 4096, 4096, 7168, 8, permute="x"), 128, 64, 256, 8, 32),  # W past 2^31, scattered rows
    (Problem("dx", 32, 2048, 2880, 2880, 4, permute="y"), 128, 64, 128, 8, 32),  # K tail, dY's rows routed
    (Problem("dx", 64, 256, 200, 160, 2, routing="zipf:1.5"), 64, 64, 128, 4, 32),  # empty experts, N and K tails
    (Problem("dx", 8, 1024, 1408, 4096, 2, permute="y"), 64, 64, 256, 8, 16),  # two warpgroups side by side
    (Problem("dx", 16, 4096, 512, 1000, 1, permute="x"), 128, 64, 256, 8, 32),  # 256 ± 16 rows per expert
    (Problem("dx", 16, 4096, 512, 1000, 1, permute="y"), 256, 64, 128, 8, 32),  # 256-row tiles, dY routed, K tail
]


@pytest.mark.parametrize("problem, bm, bn, bk, warps, tail_rows", WARP_SPECIALIZED_DX,
                         ids=[p.describe() for p, *_ in WARP_SPECIALIZED_DX])
@pytest.mark.parametrize("tail", ["none", "merged"])
@pytest.mark.parametrize("store", [False, True], ids=["registers", "tma_store"])
@pytest.mark.parametrize("route", X_ROUTES)
@pytest.mark.parametrize("schedule", SCHEDULES)
def test_warp_specialized_dx_is_correct(problem, bm, bn, bk, warps, tail_rows, tail, store, route, schedule):
    if route == "loader_gather" and not problem.permute_y:
        pytest.skip("dY is not gathered: nothing for the loader to gather")
    pregather = problem.permute_y and route == "pregather"
    config = config_class("dx")(BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, num_warps=warps, num_stages=3,
                                permute_x=problem.permute_x, permute_y=problem.permute_y, use_tma_load_w=True,
                                use_tma_load_dy=pregather or not problem.permute_y, pregather=pregather,
                                warp_specialize=True, use_tma_store=store,
                                TAIL_ROWS=tail_rows if tail == "merged" else 0, **SCHEDULES[schedule])
    kept, pruned = prune([config], problem, active_device())
    if pruned:
        pytest.skip(pruned[0].reason)  # a TMA store under permute_x
    inputs = make_inputs(problem, "cuda")
    if tail == "merged":
        assert merged_tails(inputs.m_sizes, bm, tail_rows) > 0, "no expert has a tail to merge"
    launcher = assert_correct_within_predicted_smem(problem, inputs, config)
    assert launcher.compiled.name == "grouped_gemm_ws_kernel"


SPLIT_BLOCKS = [
    # (problem, BLOCK_SIZE_M, output block, reduction block, num_warps): an output block of 192 columns in the
    # Gluon kernel, two accumulators of 128 and 64 columns (gemmtune.pruning.split_columns); below, 384 and 320.
    # fwd: BLOCK_SIZE_N is the output block; dX: BLOCK_SIZE_K is, BLOCK_SIZE_N the reduction's
    (Problem("fwd", 256, 4096, 4096, 7168, 8, permute="x"), 256, 192, 64, 8),  # W past 2^31, N tail of 64
    (Problem("fwd", 64, 256, 200, 160, 2, routing="zipf:1.5"), 128, 192, 64, 8),  # empty experts, 8-column tail
    (Problem("fwd", 8, 1100, 4096, 1408, 2, permute="y"), 256, 192, 64, 8),  # scattered rows
    (Problem("fwd", 16, 300, 1000, 512, 4, permute="x"), 128, 192, 64, 4),  # one warpgroup, tail in both parts
    (Problem("dx", 256, 4096, 4096, 7168, 8, permute="x"), 256, 192, 64, 8),  # W past 2^31, scattered rows
    (Problem("dx", 16, 4096, 512, 1000, 1, permute="y"), 256, 192, 64, 8),  # dY routed, K tail
    # 384 columns: 256 + 128, one 64-row slab per warpgroup
    (Problem("fwd", 256, 4096, 4096, 7168, 8, permute="x"), 128, 384, 64, 8),  # W past 2^31, rest past N
    (Problem("fwd", 64, 256, 300, 160, 2, routing="zipf:1.5"), 128, 384, 32, 8),  # empty experts, N tail in rest
    (Problem("fwd", 8, 1100, 1000, 1408, 2, permute="y"), 128, 384, 64, 8),  # scattered, N tail in main part
    (Problem("dx", 16, 4096, 512, 1000, 1, permute="y"), 128, 384, 64, 8),  # dY routed, K tail
    # 320 columns: 256 + 64, nine blocks across gpt-oss-20b's 2880
    (Problem("fwd", 32, 512, 2880, 2880, 4, permute="y"), 128, 320, 64, 8),  # scattered rows, N = 9 blocks
    (Problem("dx", 32, 512, 2880, 2880, 4, permute="x"), 128, 320, 64, 8),  # scattered dX rows, K = 9 blocks
]


@pytest.mark.parametrize("problem, bm, block_out, block_reduction, warps", SPLIT_BLOCKS,
                         ids=[p.describe() for p, *_ in SPLIT_BLOCKS])
@pytest.mark.parametrize("schedule", SCHEDULES)
def test_split_output_block_is_correct(problem, bm, block_out, block_reduction, warps, schedule):
    routed = problem.permute_x if problem.mode == "fwd" else problem.permute_y
    blocks = (dict(BLOCK_SIZE_N=block_out, BLOCK_SIZE_K=block_reduction, use_tma_load_x=True) if problem.mode == "fwd"
              else dict(BLOCK_SIZE_N=block_reduction, BLOCK_SIZE_K=block_out, use_tma_load_dy=True))
    fuse = dict(fuse_mul_post=True) if problem.mode == "fwd" and problem.permute_y else {}
    config = config_class(problem.mode)(BLOCK_SIZE_M=bm, num_warps=warps, num_stages=3, permute_x=problem.permute_x,
                                        permute_y=problem.permute_y, use_tma_load_w=True, warp_specialize=True,
                                        pregather=routed, **blocks, **fuse, **SCHEDULES[schedule])
    kept, pruned = prune([config], problem, active_device())
    assert kept, pruned[0].reason
    launcher = assert_correct_within_predicted_smem(problem, make_inputs(problem, "cuda"), config)
    assert launcher.compiled.name == "grouped_gemm_ws_kernel"


WARP_SPECIALIZED_DW = [
    # (problem, BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, num_warps, num_stages); gemmtune.kernels.dw_ws
    (Problem("dw", 256, 1024, 4096, 7168, 8, permute="x"), 64, 128, 256, 8, 3),  # dW past 2^31, partial blocks
    (Problem("dw", 32, 512, 2880, 2880, 4, permute="y"), 64, 128, 128, 8, 4),  # N and K tails
    (Problem("dw", 8, 1024, 4096, 1408, 2, permute="x"), 128, 64, 128, 8, 3),  # two warpgroups side by side
    (Problem("dw", 64, 64, 200, 160, 2, routing="zipf:1.5"), 64, 128, 64, 4, 3),  # empty experts, one warpgroup
    (Problem("dw", 16, 4096, 1000, 512, 1, permute="x"), 32, 128, 256, 8, 6),  # 32-row M steps, N tail
]


@pytest.mark.parametrize("problem, bm, bn, bk, warps, stages", WARP_SPECIALIZED_DW,
                         ids=[p.describe() for p, *_ in WARP_SPECIALIZED_DW])
@pytest.mark.parametrize("store", [False, True], ids=["registers", "tma_store"])
def test_warp_specialized_dw_is_correct(problem, bm, bn, bk, warps, stages, store):
    config = config_class("dw")(BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, num_warps=warps, num_stages=stages,
                                permute_x=problem.permute_x, permute_y=problem.permute_y, use_tma_load_x=True,
                                use_tma_load_dy=True, pregather=problem.permute_x or problem.permute_y,
                                warp_specialize=True, use_tma_store=store)
    kept, pruned = prune([config], problem, active_device())
    assert not pruned, pruned
    launcher = assert_correct_within_predicted_smem(problem, make_inputs(problem, "cuda"), config)
    assert launcher.compiled.name == "grouped_gemm_dW_ws_kernel"
