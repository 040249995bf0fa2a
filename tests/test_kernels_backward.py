"""The dX and dW grouped-GEMM kernels against the fp32 reference, on the interpreter (or the GPU where there is one).

Tiny shapes (E=4, M=24, topk=2 → 48 rows) with 16/32 blocks, so that every case has partial M tiles,
an empty expert, and N or K tails. Outputs are poisoned with NaN first: an element the kernel does not
write fails the comparison.
"""

from __future__ import annotations

import pytest
import torch

from gemmtune.config import KernelConfigBackward_dW, KernelConfigBackward_dX
from gemmtune.kernels.dw import grouped_gemm_dW
from gemmtune.kernels.dx import grouped_gemm_dX
from gemmtune.problem import Inputs, Problem, make_inputs
from gemmtune.reference import TOLERANCE, reference, relative_error
from gemmtune.routing import Routing, sort_by_expert

E, M, TOPK = 4, 24, 2
DEVICE = "cuda" if torch.cuda.is_available() else "cpu"

pytestmark = pytest.mark.filterwarnings("ignore:Conversion of an array with ndim > 0:DeprecationWarning")


def blocks(m: int, n: int, k: int, **knobs) -> dict:
    """Config knobs: BLOCK_SIZE_M/N/K and any other field."""
    return dict(BLOCK_SIZE_M=m, BLOCK_SIZE_N=n, BLOCK_SIZE_K=k, **knobs)


TMA_DX = dict(use_tma_load_dy=True, use_tma_load_w=True, use_tma_store=True)
TMA_LOADS_DW = dict(use_tma_load_x=True, use_tma_load_dy=True)
TMA_DW = dict(**TMA_LOADS_DW, use_tma_store=True)


def _routing(kind: str) -> Routing:
    """Hand-made topk_ids (M, topk) with empty experts and ragged sizes."""
    t = torch.arange(M)
    if kind == "empty_middle":
        # tokens 0..13 → (0, 1), 14..19 → (1, 3), 20..23 → (3, 0): m_sizes [18, 20, 0, 10].
        first = torch.where(t < 14, 0, torch.where(t < 20, 1, 3))
        second = torch.where(t < 14, 1, torch.where(t < 20, 3, 0))
    elif kind == "empty_ends":
        # every token → experts 1 and 2 (in either order): m_sizes [0, 24, 24, 0].
        first = torch.where(t % 3 == 0, 1, 2)
        second = 3 - first
    else:
        raise ValueError(kind)
    return sort_by_expert(torch.stack([first, second], 1), E)


def _setup(mode: str, N: int, K: int, dtype: str, permute: str, routing: str):
    problem = Problem(mode, E, M, N, K, topk=TOPK, dtype=dtype, permute=permute, routing=routing)
    return problem, make_inputs(problem, DEVICE, routing=_routing(routing))


def _check(out: torch.Tensor, problem: Problem, inputs: Inputs) -> None:
    ref = reference(problem, inputs)
    assert out.shape == ref.shape and out.dtype == problem.torch_dtype
    err = relative_error(out, ref)
    assert err <= TOLERANCE[problem.dtype], f"relative error {err} > {TOLERANCE[problem.dtype]}"


DX_CASES = [
    # (N, K, dtype, permute, routing, config)
    # plain, N tail (40 % 16), empty middle expert, ragged partial M tiles
    pytest.param(40, 48, "fp32", "none", "empty_middle", blocks(16, 16, 16), id="plain-Ntail"),
    # K tail (40 % 32) on the store, EVEN_N (48 % 16): no N mask
    pytest.param(48, 40, "fp32", "none", "empty_middle", blocks(16, 16, 32), id="Ktail-evenN"),
    # permute_x: dX scattered to token·topk order on store
    pytest.param(40, 48, "fp32", "x", "empty_middle", blocks(16, 32, 16), id="permute_x"),
    # permute_y: dY gathered through gather_indices on load, bf16
    pytest.param(40, 48, "bf16", "y", "empty_middle", blocks(16, 16, 32), id="permute_y-bf16"),
    # BLOCK_SIZE_M 32 > expert 3's 10 rows, GROUP_SIZE_M 2 swizzle, flatten, empty first and last expert
    pytest.param(40, 40, "bf16", "none", "empty_ends", blocks(32, 16, 16, GROUP_SIZE_M=2, flatten=True),
        id="bigM-group2-ends"),
    # every TMA flag, N tail: W blocks past row N read expert e+1, meeting zero-filled dY columns;
    # partial M tiles go through the masked store, full ones through TMA
    pytest.param(40, 48, "bf16", "none", "empty_middle", blocks(16, 16, 32, **TMA_DX), id="tma-all-bf16"),
    # TMA on fp32, K tail clipped by the TMA store
    pytest.param(40, 40, "fp32", "none", "empty_middle", blocks(16, 32, 32, **TMA_DX), id="tma-all-fp32-Ktail"),
    # TMA W with gathered dY (masked: columns past N are 0)
    pytest.param(40, 48, "fp32", "y", "empty_middle", blocks(16, 16, 16, use_tma_load_w=True), id="tma-w-permute_y"),
    # TMA dY (sorted) with dX scattered on store
    pytest.param(40, 48, "bf16", "x", "empty_middle", blocks(16, 16, 16, use_tma_load_dy=True), id="tma-dy-permute_x"),
    # pregather: dY gathered into expert order ahead of the kernel, then read by TMA, N tail
    pytest.param(40, 48, "bf16", "y", "empty_middle", blocks(16, 16, 32, use_tma_load_dy=True, pregather=True),
        id="pregather-dy"),
    # half_tail on 32-row blocks (m_sizes [18, 20, 0, 10]: tails of 18, 20 and 10 rows, the last a half tile)
    pytest.param(40, 48, "bf16", "x", "empty_middle", blocks(32, 16, 16, half_tail=True), id="half_tail-permute_x"),
    # half_tail with every TMA flag: the half tile has its own dY and dX descriptors
    pytest.param(40, 48, "bf16", "none", "empty_middle", blocks(32, 16, 32, half_tail=True, **TMA_DX),
        id="half_tail-tma-all"),
]


@pytest.mark.parametrize("N, K, dtype, permute, routing, knobs", DX_CASES)
def test_dx_matches_reference(N, K, dtype, permute, routing, knobs):
    problem, inputs = _setup("dx", N, K, dtype, permute, routing)
    config = KernelConfigBackward_dX(permute_x=problem.permute_x, permute_y=problem.permute_y, **knobs)
    out = torch.full((problem.rows, K), float("nan"), dtype=problem.torch_dtype, device=DEVICE)
    dx, _ = grouped_gemm_dX(inputs.dy, inputs.w, inputs.m_sizes, inputs.gather_indices, config, topk=TOPK, out=out)
    assert dx is out
    _check(dx, problem, inputs)


DW_CASES = [
    # (N, K, dtype, permute, routing, config)
    # plain, N tail, SPLIT_M 1 (direct store), empty middle expert must be written as zeros
    pytest.param(40, 48, "fp32", "none", "empty_middle", blocks(16, 16, 16), id="plain-split1"),
    # permute_x: X gathered through gather_indices // topk, K tail (40 % 32), SPLIT_M 2 atomics into out
    pytest.param(48, 40, "fp32", "x", "empty_middle", blocks(16, 16, 32, SPLIT_M=2), id="permute_x-split2"),
    # permute_y: dY gathered through gather_indices, bf16, SPLIT_M 2 through the fp32 scratch buffer
    pytest.param(40, 48, "bf16", "y", "empty_middle", blocks(16, 32, 16, SPLIT_M=2), id="permute_y-bf16-split2"),
    # bf16 direct store, N and K tails, GROUP_SIZE_M 2 swizzle over (N, K) tiles, flatten
    pytest.param(40, 40, "bf16", "x", "empty_ends", blocks(32, 16, 16, GROUP_SIZE_M=2, flatten=True),
        id="bf16-tails-group2-ends"),
    # GROUP_SIZE_M 32 > the 3 N blocks (the dW group of the shipped spaces on a small shape): one group
    pytest.param(40, 48, "fp32", "y", "empty_middle", blocks(16, 16, 16, GROUP_SIZE_M=32), id="group32-over-n-blocks"),
    # SPLIT_M 3 > M blocks of small experts: splits with no rows add nothing
    pytest.param(40, 48, "fp32", "none", "empty_middle", blocks(16, 16, 32, SPLIT_M=3), id="split3"),
    # every TMA flag, bf16, N and K tails: TMA rows past the expert's end are zeroed; (E, N, K) store
    pytest.param(40, 40, "bf16", "none", "empty_middle", blocks(16, 16, 32, **TMA_DW), id="tma-all-bf16"),
    # TMA loads, fp32, SPLIT_M 2
    pytest.param(40, 48, "fp32", "none", "empty_middle", blocks(16, 16, 16, **TMA_LOADS_DW, SPLIT_M=2),
        id="tma-loads-fp32-split2"),
    # TMA X (past the expert's end: next expert's rows) with gathered, masked dY
    pytest.param(40, 48, "fp32", "y", "empty_middle", blocks(16, 16, 16, use_tma_load_x=True), id="tma-x-permute_y"),
    # TMA dY (rows past the expert's end zeroed by tl.where) with gathered X
    pytest.param(40, 48, "bf16", "x", "empty_middle", blocks(16, 16, 16, use_tma_load_dy=True), id="tma-dy-permute_x"),
    # pregather X (gather_indices // topk ahead of the kernel), both operands by TMA, K tail
    pytest.param(48, 40, "bf16", "x", "empty_middle", blocks(16, 16, 32, **TMA_LOADS_DW, pregather=True),
        id="pregather-x"),
    # pregather dY, SPLIT_M 2
    pytest.param(40, 48, "fp32", "y", "empty_middle", blocks(16, 16, 16, **TMA_LOADS_DW, pregather=True, SPLIT_M=2),
        id="pregather-dy-split2"),
]


@pytest.mark.parametrize("N, K, dtype, permute, routing, knobs", DW_CASES)
def test_dw_matches_reference(N, K, dtype, permute, routing, knobs):
    problem, inputs = _setup("dw", N, K, dtype, permute, routing)
    config = KernelConfigBackward_dW(permute_x=problem.permute_x, permute_y=problem.permute_y, **knobs)
    out = torch.full((E, N, K), float("nan"), dtype=problem.torch_dtype, device=DEVICE)
    dw, _ = grouped_gemm_dW(inputs.x, inputs.dy, inputs.m_sizes, inputs.gather_indices, config, topk=TOPK, out=out)
    assert dw is out
    empty = inputs.m_sizes == 0
    assert empty.any() and (dw[empty] == 0).all()
    _check(dw, problem, inputs)


def test_dx_dw_allocate_output():
    """Without out=, each wrapper allocates its output in the input dtype."""
    problem, inputs = _setup("dw", 40, 48, "bf16", "none", "empty_middle")
    config = KernelConfigBackward_dW(BLOCK_SIZE_M=16, BLOCK_SIZE_N=32, BLOCK_SIZE_K=32, SPLIT_M=2)
    dw, _ = grouped_gemm_dW(inputs.x, inputs.dy, inputs.m_sizes, inputs.gather_indices, config, topk=TOPK)
    _check(dw, problem, inputs)
    problem, inputs = _setup("dx", 40, 48, "bf16", "none", "empty_middle")
    config = KernelConfigBackward_dX(BLOCK_SIZE_M=16, BLOCK_SIZE_N=32, BLOCK_SIZE_K=32)
    dx, _ = grouped_gemm_dX(inputs.dy, inputs.w, inputs.m_sizes, inputs.gather_indices, config, topk=TOPK)
    _check(dx, problem, inputs)


@pytest.mark.parametrize(
    "knobs, match",
    [
        (dict(permute_x=True, permute_y=True), "permute_x and permute_y"),
        (dict(permute_y=True, fuse_mul_post=True), "fuse_mul_post"),
        (dict(permute_y=True, use_tma_load_dy=True), "use_tma_load_dy"),
        (dict(permute_x=True, use_tma_store=True), "use_tma_store"),
        (dict(permute_x=True, use_tma_load_dy=True, pregather=True), "gathers no operand"),
        (dict(permute_y=True, pregather=True), "pregather without use_tma_load_dy"),
    ],
)
def test_dx_rejects_bad_flags(knobs, match):
    _, inputs = _setup("dx", 40, 48, "fp32", "none", "empty_middle")
    with pytest.raises(ValueError, match=match):
        grouped_gemm_dX(
            inputs.dy, inputs.w, inputs.m_sizes, inputs.gather_indices, KernelConfigBackward_dX(**knobs), topk=TOPK
        )


def test_dx_rejects_bad_shapes():
    _, inputs = _setup("dx", 40, 48, "fp32", "none", "empty_middle")
    config = KernelConfigBackward_dX()
    with pytest.raises(ValueError, match=r"dy must be \(48, 40\)"):
        grouped_gemm_dX(inputs.dy[:, :32], inputs.w, inputs.m_sizes, inputs.gather_indices, config, topk=TOPK)
    with pytest.raises(ValueError, match="share a dtype"):
        grouped_gemm_dX(inputs.dy.bfloat16(), inputs.w, inputs.m_sizes, inputs.gather_indices, config, topk=TOPK)
    with pytest.raises(ValueError, match="m_sizes"):
        grouped_gemm_dX(inputs.dy, inputs.w, inputs.m_sizes.long(), inputs.gather_indices, config, topk=TOPK)
    with pytest.raises(ValueError, match=r"out must be \(48, 48\)"):
        grouped_gemm_dX(
            inputs.dy, inputs.w, inputs.m_sizes, inputs.gather_indices, config, topk=TOPK, out=torch.empty(48, 40)
        )


@pytest.mark.parametrize(
    "knobs, match",
    [
        (dict(permute_x=True, permute_y=True), "permute_x and permute_y"),
        (dict(permute_y=True, fuse_mul_post=True), "fuse_mul_post"),
        (dict(permute_x=True, use_tma_load_x=True), "use_tma_load_x"),
        (dict(permute_y=True, use_tma_load_dy=True), "use_tma_load_dy"),
        (dict(SPLIT_M=0), "SPLIT_M"),
        (dict(SPLIT_M=2, use_tma_store=True), "use_tma_store"),
    ],
)
def test_dw_rejects_bad_flags(knobs, match):
    permute = "x" if knobs.get("permute_x") else "none"
    _, inputs = _setup("dw", 40, 48, "fp32", permute, "empty_middle")
    with pytest.raises(ValueError, match=match):
        grouped_gemm_dW(
            inputs.x, inputs.dy, inputs.m_sizes, inputs.gather_indices, KernelConfigBackward_dW(**knobs), topk=TOPK
        )


def test_dw_rejects_bad_shapes():
    _, inputs = _setup("dw", 40, 48, "fp32", "none", "empty_middle")
    config = KernelConfigBackward_dW()
    with pytest.raises(ValueError, match=r"x must be \(48, K\)"):
        grouped_gemm_dW(inputs.x[:24], inputs.dy, inputs.m_sizes, inputs.gather_indices, config, topk=TOPK)
    with pytest.raises(ValueError, match=r"dy must be \(48, N\)"):
        grouped_gemm_dW(inputs.x, inputs.dy[:24], inputs.m_sizes, inputs.gather_indices, config, topk=TOPK)
    with pytest.raises(ValueError, match="share a dtype"):
        grouped_gemm_dW(inputs.x, inputs.dy.bfloat16(), inputs.m_sizes, inputs.gather_indices, config, topk=TOPK)
    with pytest.raises(ValueError, match=r"out must be \(4, 40, 48\)"):
        grouped_gemm_dW(
            inputs.x, inputs.dy, inputs.m_sizes, inputs.gather_indices, config, topk=TOPK, out=torch.empty(4, 48, 40)
        )


@pytest.mark.parametrize("permute", ["none", "x", "y"])
def test_references_match_autograd(permute):
    """reference('dx') and reference('dw') are the gradients of the fp32 forward reference, by autograd."""
    N, K = 40, 48
    fwd, f_inputs = _setup("fwd", N, K, "fp32", permute, "empty_middle")
    dx_problem, dx_inputs = _setup("dx", N, K, "fp32", permute, "empty_middle")
    dw_problem, dw_inputs = _setup("dw", N, K, "fp32", permute, "empty_middle")
    x = dw_inputs.x.clone().requires_grad_()
    w = dx_inputs.w.clone().requires_grad_()
    dy = dx_inputs.dy
    y = reference(fwd, Inputs(f_inputs.m_sizes, f_inputs.gather_indices, x=x, w=w))
    y.backward(dy)

    dx_ref = reference(dx_problem, Inputs(dx_inputs.m_sizes, dx_inputs.gather_indices, w=w.detach(), dy=dy))
    if permute == "x":
        dx_ref = dx_ref.view(M, TOPK, K).sum(1)  # token gradient: sum over the token's topk rows
    dw_ref = reference(dw_problem, Inputs(dw_inputs.m_sizes, dw_inputs.gather_indices, x=x.detach(), dy=dy))
    torch.testing.assert_close(x.grad, dx_ref, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(w.grad, dw_ref, rtol=1e-5, atol=1e-5)
    assert (w.grad[dw_inputs.m_sizes == 0] == 0).all()
