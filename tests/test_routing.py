"""Routing: every spec gives consistent m_sizes and gather_indices; files load; bad specs are refused."""

import numpy as np
import pytest
import torch

from gemmtune.problem import Problem, ProblemError, parse_shape
from gemmtune.routing import RoutingError, make_routing


def consistent(routing, E, M, topk):
    ids = routing.topk_ids.reshape(-1)
    assert routing.m_sizes.sum() == M * topk
    assert torch.equal(routing.m_sizes, torch.bincount(ids, minlength=E).int())
    # sorted by expert, and a permutation of all pairs
    assert torch.equal(torch.sort(routing.gather_indices.long()).values, torch.arange(M * topk))
    assert torch.all(ids[routing.gather_indices.long()].diff() >= 0)
    # distinct experts per token
    assert all(len(set(row.tolist())) == topk for row in routing.topk_ids)


@pytest.mark.parametrize("spec", ["uniform", "balanced", "zipf:0", "zipf:1.2"])
def test_routings_are_consistent(spec):
    r = make_routing(spec, 16, 100, 4, seed=3)
    consistent(r, 16, 100, 4)


def test_seed_reproduces_and_changes():
    a, b, c = (make_routing("uniform", 8, 64, 2, seed=s) for s in (1, 1, 2))
    assert torch.equal(a.topk_ids, b.topk_ids) and not torch.equal(a.topk_ids, c.topk_ids)


def test_balanced_differs_by_at_most_one():
    r = make_routing("balanced", 7, 50, 3, seed=0)
    assert int(r.m_sizes.max() - r.m_sizes.min()) <= 1


def test_zipf_is_skewed():
    flat = make_routing("uniform", 64, 4096, 1, 0).m_sizes.float()
    skewed = make_routing("zipf:1.5", 64, 4096, 1, 0).m_sizes.float()
    assert skewed.max() > 3 * flat.max()


def test_routing_files(tmp_path):
    ids = torch.tensor([[0, 2], [2, 3], [3, 0]])
    torch.save(ids, tmp_path / "ids.pt")
    np.save(tmp_path / "m_sizes.npy", np.array([0, 3, 2, 1]))
    r = make_routing(str(tmp_path / "ids.pt"), 4, 3, 2, 0)
    assert r.m_sizes.tolist() == [2, 0, 2, 2]
    r = make_routing(str(tmp_path / "m_sizes.npy"), 4, 3, 2, 0)
    assert r.m_sizes.tolist() == [0, 3, 2, 1]


def test_m_sizes_file_routes_like_a_router(tmp_path):
    """Each token's topk experts are distinct and an expert's tokens are spread over the batch, as a router's."""
    m_sizes = [4096] * 4 + [4352, 3840] * 2
    torch.save(torch.tensor(m_sizes), tmp_path / "m_sizes.pt")
    r = make_routing(str(tmp_path / "m_sizes.pt"), 8, 16384, 2, seed=0)
    assert r.m_sizes.tolist() == m_sizes
    assert (r.topk_ids[:, 0] != r.topk_ids[:, 1]).all()
    tokens = r.gather_indices[: m_sizes[0]].long() // 2  # expert 0's tokens, in sorted order
    assert int(tokens[-1] - tokens[0]) > 2 * m_sizes[0]  # spread, not one contiguous range
    again = make_routing(str(tmp_path / "m_sizes.pt"), 8, 16384, 2, seed=0)
    other = make_routing(str(tmp_path / "m_sizes.pt"), 8, 16384, 2, seed=1)
    assert torch.equal(r.gather_indices, again.gather_indices)
    assert not torch.equal(r.gather_indices, other.gather_indices)


@pytest.mark.parametrize("spec, message", [("zipf:x", "bad zipf exponent"), ("gauss", "unknown routing"), ("zipf:-1", ">= 0")])
def test_bad_specs(spec, message):
    with pytest.raises(RoutingError, match=message):
        make_routing(spec, 8, 16, 2, 0)


def test_bad_files(tmp_path):
    (tmp_path / "junk.pt").write_bytes(b"not a tensor")
    with pytest.raises(RoutingError, match="cannot read"):
        make_routing(str(tmp_path / "junk.pt"), 4, 3, 2, 0)
    np.save(tmp_path / "wrong.npy", np.array([1, 1]))
    with pytest.raises(RoutingError, match="m_sizes"):
        make_routing(str(tmp_path / "wrong.npy"), 4, 3, 2, 0)
    np.save(tmp_path / "twice.npy", np.array([0, 4, 1, 1]))  # 4 rows of 3 tokens: a token sent to expert 1 twice
    with pytest.raises(RoutingError, match="at most once"):
        make_routing(str(tmp_path / "twice.npy"), 4, 3, 2, 0)


@pytest.mark.parametrize("text", ["8,a,3,4", "0,1,1,1", "-8,64,64,64", "8,64,64", "8,64,64,64,1", ""])
def test_parse_shape_refuses(text):
    with pytest.raises(ProblemError):
        parse_shape(text)


def test_parse_shape_and_problem_sizes():
    assert parse_shape("128, 4096,1536,2048") == (128, 4096, 1536, 2048)
    p = Problem("fwd", 128, 4096, 1536, 2048, 8, permute="x")
    assert p.rows == 32768 and p.flops == 2 * 32768 * 1536 * 2048
    assert p.bytes_moved == (4096 * 2048 + 128 * 1536 * 2048 + 32768 * 1536) * 2
    with pytest.raises(ProblemError, match="topk"):
        Problem("fwd", 4, 8, 8, 8, 5)
