"""The forward kernel against the fp32 torch reference, on the interpreter (or the GPU where there is one)."""

import pytest
import torch

from gemmtune.config import KernelConfigForward
from gemmtune.kernels import Launcher
from gemmtune.problem import Problem, make_inputs
from gemmtune.reference import TOLERANCE, reference, relative_error
from gemmtune.routing import Routing, sort_by_expert

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def ragged_routing(E, M, topk, empty=(1,)):
    """Each token's topk experts avoid `empty`, so those experts get no rows; the others get uneven counts."""
    live = [e for e in range(E) if e not in empty]
    # t² spreads tokens unevenly; consecutive j keep each token's experts distinct (topk <= len(live)).
    ids = torch.tensor([[live[(t * t + j) % len(live)] for j in range(topk)] for t in range(M)])
    return sort_by_expert(ids, E)


def run(problem: Problem, config: KernelConfigForward, routing: Routing | None = None):
    inputs = make_inputs(problem, DEVICE, routing)
    launcher = Launcher(problem, inputs, config)
    launcher.out.fill_(float("nan"))  # poison: an unwritten element fails
    out = launcher()
    ref = reference(problem, inputs, config.fuse_mul_post)
    return relative_error(out, ref), inputs


CASES = [
    # (E, M, N, K, topk, permute, fuse_mul_post)
    (4, 24, 64, 64, 2, "none", False),  # aligned N and K, sorted layout
    (5, 20, 40, 48, 2, "none", False),  # K and N not multiples of the block: tail masking
    (5, 20, 40, 48, 2, "x", False),  # permute_x: X rows gathered through gather_indices // topk
    (5, 20, 40, 48, 2, "y", False),  # permute_y: Y rows scattered to token order
    (5, 20, 40, 48, 2, "y", True),  # fuse_mul_post: scattered rows times their topk weight
    (6, 9, 33, 17, 3, "x", False),  # odd sizes everywhere, topk 3
]


@pytest.mark.parametrize("dtype", ["fp32", "bf16"])
@pytest.mark.parametrize("E, M, N, K, topk, permute, fuse", CASES)
def test_forward_matches_reference_with_an_empty_expert(E, M, N, K, topk, permute, fuse, dtype):
    problem = Problem("fwd", E, M, N, K, topk, dtype, permute)
    routing = ragged_routing(E, M, topk)
    assert routing.m_sizes[1] == 0 and len(set(routing.m_sizes.tolist())) > 2  # ragged, one expert empty
    config = KernelConfigForward(BLOCK_SIZE_M=16, BLOCK_SIZE_N=32, BLOCK_SIZE_K=16, GROUP_SIZE_M=2,
                                 permute_x=problem.permute_x, permute_y=problem.permute_y, fuse_mul_post=fuse)
    err, _ = run(problem, config, routing)
    assert err <= TOLERANCE[dtype], err


@pytest.mark.parametrize("tma", [dict(use_tma_load_w=True), dict(use_tma_load_x=True), dict(use_tma_store=True),
                                 dict(use_tma_load_w=True, use_tma_load_x=True, use_tma_store=True)])
def test_forward_tma_paths(tma):
    # 40 rows per expert on a 16-row block: partial M tiles must not overwrite the next expert through TMA.
    problem = Problem("fwd", 4, 40, 48, 40, 2, "bf16", "none", routing="balanced")
    config = KernelConfigForward(BLOCK_SIZE_M=16, BLOCK_SIZE_N=32, BLOCK_SIZE_K=16, **tma)
    err, _ = run(problem, config)
    assert err <= TOLERANCE["bf16"], err


@pytest.mark.parametrize("tma", [dict(use_tma_load_x=True), dict(use_tma_load_x=True, use_tma_load_w=True)])
def test_forward_pregather_reads_the_gathered_x_by_tma(tma):
    problem = Problem("fwd", 5, 20, 40, 48, 2, "bf16", "x")
    routing = ragged_routing(5, 20, 2)
    config = KernelConfigForward(BLOCK_SIZE_M=16, BLOCK_SIZE_N=32, BLOCK_SIZE_K=16, permute_x=True, pregather=True, **tma)
    err, _ = run(problem, config, routing)
    assert err <= TOLERANCE["bf16"], err


@pytest.mark.parametrize("permute, knobs", [
    ("x", {}),
    ("y", dict(fuse_mul_post=True)),
    ("none", dict(use_tma_load_x=True, use_tma_load_w=True, use_tma_store=True)),
    ("x", dict(use_tma_load_x=True, pregather=True, use_tma_store=True)),
])
def test_forward_half_tail(permute, knobs):
    # 32-row blocks, halves of 16: m_sizes [12, 0, 24, 40, 44] give a lone half tile (12), a full tile
    # with a half tail (40 = 32 + 8), tails just over a half (24, 44 = 32 + 12) and an empty expert.
    pairs = [(0, 3)] * 12 + [(2, 4)] * 20 + [(3, 4)] * 24 + [(2, 3)] * 4
    routing = sort_by_expert(torch.tensor(pairs), 5)
    assert routing.m_sizes.tolist() == [12, 0, 24, 40, 44]
    problem = Problem("fwd", 5, 60, 40, 48, 2, "bf16", permute)
    config = KernelConfigForward(BLOCK_SIZE_M=32, BLOCK_SIZE_N=32, BLOCK_SIZE_K=16, half_tail=True,
                                 permute_x=problem.permute_x, permute_y=problem.permute_y, **knobs)
    err, _ = run(problem, config, routing)
    assert err <= TOLERANCE["bf16"], err


def test_fuse_mul_post_changes_the_result():
    problem = Problem("fwd", 4, 16, 32, 32, 2, "fp32", "y")
    plain = KernelConfigForward(BLOCK_SIZE_M=16, BLOCK_SIZE_N=32, BLOCK_SIZE_K=16, permute_y=True)
    fused = KernelConfigForward(BLOCK_SIZE_M=16, BLOCK_SIZE_N=32, BLOCK_SIZE_K=16, permute_y=True, fuse_mul_post=True)
    inputs = make_inputs(problem, DEVICE)
    a, b = Launcher(problem, inputs, plain)(), Launcher(problem, inputs, fused)().clone()
    torch.testing.assert_close(b, a * inputs.topk_weights[:, None], rtol=1e-5, atol=1e-6)


def test_wrapper_refuses_mismatched_inputs():
    from gemmtune.kernels.fwd import grouped_gemm_forward

    problem = Problem("fwd", 4, 16, 32, 32, 2, "fp32", "x")
    inputs = make_inputs(problem, DEVICE)
    config = KernelConfigForward(permute_x=True)
    with pytest.raises(ValueError, match=r"x must be \(16, 32\)"):
        grouped_gemm_forward(inputs.x[:8], inputs.w, inputs.m_sizes, inputs.gather_indices, config, topk=2)
    with pytest.raises(ValueError, match="use_tma_load_x with permute_x"):
        grouped_gemm_forward(inputs.x, inputs.w, inputs.m_sizes, inputs.gather_indices,
                             KernelConfigForward(permute_x=True, use_tma_load_x=True), topk=2)
