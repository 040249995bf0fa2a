"""Token routing: which experts each token goes to, and the sorted layout the kernels read.

A router picks `topk` distinct experts per token: topk_ids (M, topk). The grouped GEMM sees the M·topk
(token, slot) pairs sorted by expert, stably:
- m_sizes (E,) int32: rows per expert, summing to M·topk; experts may be empty.
- gather_indices (M·topk,) int32: sorted position i holds the flat pair index t·topk + j, so its token
  is gather_indices[i] // topk (this is what permute_x gathers and permute_y scatters through).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import torch

ROUTING_HELP = "uniform | balanced | zipf:S | FILE (.pt or .npy of topk_ids (M, topk) or m_sizes (E,))"


class RoutingError(ValueError):
    """A routing spec that cannot be parsed or a routing file that cannot be used."""


@dataclass(frozen=True)
class Routing:
    """Routed token layout. Tensors live on the CPU; `.to(device)` moves them.

    topk_ids: (M, topk) int64 expert ids; m_sizes: (E,) int32; gather_indices: (M·topk,) int32.
    """

    topk_ids: torch.Tensor
    m_sizes: torch.Tensor
    gather_indices: torch.Tensor

    def to(self, device) -> "Routing":
        return Routing(self.topk_ids.to(device), self.m_sizes.to(device), self.gather_indices.to(device))


def sort_by_expert(topk_ids: torch.Tensor, E: int) -> Routing:
    """Sort the (token, slot) pairs of topk_ids (M, topk) by expert. Raises RoutingError on ids outside [0, E)."""
    flat = topk_ids.reshape(-1).to(torch.int64)
    if flat.numel() and (int(flat.min()) < 0 or int(flat.max()) >= E):
        raise RoutingError(f"expert ids must lie in [0, {E}), got [{int(flat.min())}, {int(flat.max())}]")
    gather_indices = torch.sort(flat, stable=True).indices.to(torch.int32)
    m_sizes = torch.bincount(flat, minlength=E).to(torch.int32)
    return Routing(topk_ids.to(torch.int64), m_sizes, gather_indices)


def _expert_probabilities(spec: str, E: int) -> torch.Tensor:
    if spec == "uniform":
        return torch.full((E,), 1.0 / E, dtype=torch.float64)
    if spec.startswith("zipf:"):
        try:
            s = float(spec.removeprefix("zipf:"))
        except ValueError:
            raise RoutingError(f"bad zipf exponent in {spec!r}: expected zipf:S with a number S >= 0") from None
        if not s >= 0:
            raise RoutingError(f"zipf exponent must be >= 0, got {s}")
        ranks = torch.arange(1, E + 1, dtype=torch.float64)
        p = ranks.pow(-s)
        return p / p.sum()
    raise RoutingError(f"unknown routing {spec!r}: expected {ROUTING_HELP}")


def make_routing(spec: str, E: int, M: int, topk: int, seed: int) -> Routing:
    """Route M tokens to topk distinct experts of E.

    - uniform: every token draws topk distinct experts uniformly at random (seeded).
    - balanced: token t goes to experts (t·topk + j) mod E, so m_sizes differ by at most one.
    - zipf:S: expert popularity ∝ 1/rank^S (rank 1 most popular; the ranks are shuffled by the seed), each
      token drawing topk distinct experts by that popularity; real routers are skewed like this.
    - FILE: a .pt or .npy holding topk_ids (M, topk) or m_sizes (E,). m_sizes become topk_ids as a router's
      would be (routing_from_m_sizes): each token's topk experts distinct, the tokens shuffled by the seed.

    Raises RoutingError for a bad spec or file, or topk > E.
    """
    if topk > E:
        raise RoutingError(f"topk ({topk}) cannot exceed the expert count E ({E})")
    if spec == "balanced":
        ids = (torch.arange(M * topk, dtype=torch.int64) % E).reshape(M, topk)
        return sort_by_expert(ids, E)
    if spec not in ("uniform",) and not spec.startswith("zipf:"):
        return routing_from_file(Path(spec), E, M, topk, seed)
    probs = _expert_probabilities(spec, E)
    gen = torch.Generator().manual_seed(seed)
    probs = probs[torch.randperm(E, generator=gen)]
    ids = torch.multinomial(probs.expand(M, E), topk, replacement=False, generator=gen) if M else torch.empty(
        (0, topk), dtype=torch.int64
    )
    return sort_by_expert(ids, E)


def routing_from_file(path: Path, E: int, M: int, topk: int, seed: int) -> Routing:
    """Load topk_ids (M, topk) or m_sizes (E,) from a .pt or .npy file; m_sizes are laid out by
    routing_from_m_sizes with `seed`. Raises RoutingError if unusable."""
    if not path.is_file():
        raise RoutingError(f"unknown routing {str(path)!r}: not a file, and not one of {ROUTING_HELP}")
    try:
        if path.suffix == ".npy":
            import numpy as np

            data = torch.from_numpy(np.load(path, allow_pickle=False))
        else:
            data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # any unreadable file is the user's input error
        raise RoutingError(f"cannot read routing file {path}: {exc}") from None
    if not isinstance(data, torch.Tensor) or data.is_floating_point():
        raise RoutingError(f"routing file {path} must hold one integer tensor")
    if data.dim() == 2:
        if tuple(data.shape) != (M, topk):
            raise RoutingError(f"topk_ids in {path} have shape {tuple(data.shape)}, expected (M, topk) = ({M}, {topk})")
        return sort_by_expert(data, E)
    if data.dim() == 1:
        if data.numel() != E or int(data.sum()) != M * topk or int(data.min()) < 0:
            raise RoutingError(f"m_sizes in {path} must be E = {E} counts >= 0 summing to M·topk = {M * topk}")
        if int(data.max()) > M:
            raise RoutingError(f"m_sizes in {path} give an expert {int(data.max())} rows, more than the M = {M} "
                               "tokens: top-k routing sends a token to an expert at most once")
        return routing_from_m_sizes(data, M, topk, seed)
    raise RoutingError(f"routing file {path} holds a {data.dim()}-D tensor; expected topk_ids (M, topk) or m_sizes (E,)")


def routing_from_m_sizes(m_sizes: torch.Tensor, M: int, topk: int, seed: int) -> Routing:
    """A routing with the given rows per expert, laid out as a router's: each token's topk experts distinct and
    each expert's tokens spread over the batch.

    m_sizes: (E,) integer counts, each at most M, summing to M·topk (routing_from_file checks). Token t's j-th
    expert is that of position j·M + t in the experts' rows laid end to end; an expert's run of at most M
    positions cannot hold two positions M apart, so a token's experts are distinct. The tokens are then shuffled
    by `seed`. Laid out contiguously instead, topk > 1 would send a token to one expert topk times and give every
    expert's X rows in identical runs, on which the torch loop ran 5-7 % faster on the H200 (mixtral-8x7b's gate_up
    at 16384 tokens) and our kernel did not (docs/perf-notes.md, entry 67).
    """
    E = m_sizes.numel()
    experts = torch.repeat_interleave(torch.arange(E), m_sizes.to(torch.int64))
    topk_ids = experts.reshape(topk, M).T
    order = torch.randperm(M, generator=torch.Generator().manual_seed(seed))
    return sort_by_expert(topk_ids[order].contiguous(), E)
