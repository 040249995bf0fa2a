"""The padded gather that feeds the warp-specialized dW kernel its routed operand (gemmtune.kernels.padded_gather),
against the layout built row by row in torch, on the interpreter (or the GPU where there is one)."""

from __future__ import annotations

import pytest
import torch

from gemmtune.kernels.padded_gather import gather_rows_padded, padded_rows
from gemmtune.routing import make_routing, sort_by_expert

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"

pytestmark = pytest.mark.filterwarnings("ignore:Conversion of an array with ndim > 0:DeprecationWarning")


def expected_layout(t: torch.Tensor, gather_indices: torch.Tensor, m_sizes: torch.Tensor, topk: int,
                    block_rows: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(the padded rows, a mask of the rows the layout defines): experts one after the other, each starting
    at a multiple of block_rows, its rows t[gather_indices[i] // topk] then zeros to the next multiple."""
    out = torch.zeros((padded_rows(len(gather_indices), len(m_sizes), block_rows), t.shape[1]), dtype=t.dtype)
    defined = torch.zeros(out.shape[0], dtype=torch.bool)
    row, start = 0, 0
    for m in m_sizes.tolist():
        for i in range(m):
            out[start + i] = t[gather_indices[row + i] // topk]
        blocks = -(-m // block_rows)
        defined[start:start + blocks * block_rows] = True
        row, start = row + m, start + blocks * block_rows
    return out, defined


CASES = [
    # (E, tokens, topk, D, block_rows, routing): X under permute_x is gathered through gather_indices // topk
    pytest.param(4, 24, 2, 200, 16, "empty_middle", id="x-topk2-empty-expert-D-tail"),
    pytest.param(6, 40, 1, 64, 32, "zipf:1.5", id="dy-topk1-skewed"),
    pytest.param(3, 50, 2, 136, 64, "uniform", id="blocks-larger-than-experts"),
]


@pytest.mark.parametrize("E, tokens, topk, D, block_rows, routing", CASES)
def test_padded_gather_lays_out_experts_on_block_boundaries_with_zero_padding(E, tokens, topk, D, block_rows,
                                                                              routing):
    if routing == "empty_middle":  # experts 0, 1, 3 routed, 2 empty
        t = torch.arange(tokens)
        ids = torch.stack([torch.where(t < 14, 0, 1), torch.where(t < 14, 1, 3)], 1)
        r = sort_by_expert(ids, E)
    else:
        r = make_routing(routing, E, tokens, topk, seed=3)
    assert (r.m_sizes % block_rows).ne(0).any(), "the case must have an expert with a partial block"
    src = torch.randn(tokens if topk > 1 else tokens * topk, D).to(torch.bfloat16)
    got = gather_rows_padded(src.to(DEVICE), r.gather_indices.to(DEVICE), r.m_sizes.to(DEVICE), topk, block_rows)
    want, defined = expected_layout(src, r.gather_indices, r.m_sizes, topk, block_rows)
    assert got.shape == want.shape and got.dtype == src.dtype
    assert torch.equal(got.cpu()[defined], want[defined])


def test_padded_rows_bounds_every_routing():
    for seed in range(20):
        r = make_routing("zipf:1.2", 16, 300, 4, seed=seed)
        for block_rows in (16, 64, 128):
            needed = sum(-(-m // block_rows) * block_rows for m in r.m_sizes.tolist())
            bound = padded_rows(1200, 16, block_rows)
            assert needed <= bound and bound % block_rows == 0
