"""pregather's copy into expert order (gemmtune.kernels.pregather), each token's row read once, against the rows
picked one by one in torch, on the interpreter (or the GPU where there is one)."""

from __future__ import annotations

import pytest
import torch

from gemmtune.kernels.pregather import BLOCK_D, BLOCK_TOKENS, gather_rows
from gemmtune.routing import make_routing, sort_by_expert

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"

pytestmark = pytest.mark.filterwarnings("ignore:Conversion of an array with ndim > 0:DeprecationWarning")


CASES = [
    # (E, tokens, topk, D, routing): tokens and D off the copy's blocks, so its masks are exercised
    pytest.param(4, BLOCK_TOKENS + 5, 2, BLOCK_D + 24, "empty_middle", id="topk2-empty-expert-D-tail"),
    pytest.param(16, 3 * BLOCK_TOKENS - 1, 8, 72, "zipf:1.5", id="topk8-skewed"),
    pytest.param(6, 40, 1, 64, "uniform", id="topk1-index-select"),
]


@pytest.mark.parametrize("E, tokens, topk, D, routing", CASES)
def test_pregather_puts_each_sorted_row_of_its_token(E, tokens, topk, D, routing):
    if routing == "empty_middle":  # experts 0, 1, 3 routed, 2 empty
        t = torch.arange(tokens)
        r = sort_by_expert(torch.stack([torch.where(t < 14, 0, 1), torch.where(t < 14, 1, 3)], 1), E)
        assert r.m_sizes[2] == 0
    else:
        r = make_routing(routing, E, tokens, topk, seed=5)
    src = torch.randn(tokens if topk > 1 else tokens * topk, D).to(torch.bfloat16)
    got = gather_rows(src.to(DEVICE), r.gather_indices.to(DEVICE), topk)
    want = torch.stack([src[int(pair) // topk] for pair in r.gather_indices])
    assert got.shape == want.shape and got.dtype == src.dtype
    assert torch.equal(got.cpu(), want)
