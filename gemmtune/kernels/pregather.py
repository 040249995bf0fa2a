"""pregather: the routed operand copied into expert order ahead of the GEMM, each token's row read once.

Row i of the result is t[gather_indices[i] // topk]. torch.index_select reads the rows in that order, so a
token routed to topk experts is read topk times, and once t outgrows the L2 each read comes from DRAM:
2 · rows · D elements moved. Here each token's row is read once and written to its topk rows of the result,
found through the inverse of gather_indices: (rows / topk + rows) · D elements, 0.56× at topk = 8. On the
H200 the copy alone ran 1.30-1.64× faster than index_select on the suite's X shapes with topk 2-8
(docs/perf-notes.md, entry 43). With topk = 1 (dY, or X of a top-1 router) every row is read once either
way, and index_select does it.

Fewer bytes is what pays: the grouped GEMMs run at the 700 W power limit, and the copy run inside the GEMM
kernel instead, overlapped with its MMAs, saved almost nothing (entry 43).
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

BLOCK_TOKENS = 16
BLOCK_D = 256  # 512 bytes of each bf16 row per program
POSITIONS_BLOCK = 1024


@triton.jit
def sorted_positions_kernel(gather_indices_ptr, positions_ptr, rows, BLOCK: tl.constexpr):
    """positions[gather_indices[i]] = i for the rows i of this program's block: the inverse permutation."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < rows
    pairs = tl.load(gather_indices_ptr + offs, mask=mask, other=0)
    tl.store(positions_ptr + pairs, offs, mask=mask)


@triton.jit
def scatter_token_rows_kernel(src_ptr, dst_ptr, positions_ptr, M, D, TOPK: tl.constexpr, BLOCK_TOKENS: tl.constexpr,
                              BLOCK_D: tl.constexpr):
    """Program (d, b): columns d·BLOCK_D … of tokens b·BLOCK_TOKENS …, read once from src and written to the
    TOPK rows positions[token·TOPK + j] of dst."""
    offs_d = tl.program_id(0) * BLOCK_D + tl.arange(0, BLOCK_D)
    tokens = tl.program_id(1) * BLOCK_TOKENS + tl.arange(0, BLOCK_TOKENS)
    token_ok = tokens < M
    mask = token_ok[:, None] & (offs_d < D)[None, :]
    values = tl.load(src_ptr + tokens.to(tl.int64)[:, None] * D + offs_d[None, :], mask=mask)
    for j in tl.static_range(TOPK):
        dst_rows = tl.load(positions_ptr + tokens * TOPK + j, mask=token_ok, other=0)
        tl.store(dst_ptr + dst_rows.to(tl.int64)[:, None] * D + offs_d[None, :], values, mask=mask)


def gather_rows(t: torch.Tensor, gather_indices: torch.Tensor, topk: int = 1, warmup: bool = False) -> torch.Tensor:
    """The rows of `t` in expert order, as a kernel under permute would gather them on load (pregather).

    t: (M, D) in token order with topk > 1 (row i of the result is t[gather_indices[i] // topk]: X), or
    (M·topk, D) in token·topk order with topk = 1 (row i is t[gather_indices[i]]: dY); contiguous.
    gather_indices: (M·topk,) int32 on t's device, a permutation of 0 … M·topk - 1 (gemmtune.routing's
    sorted pairs). Returns a new contiguous (M·topk, D) tensor of t's dtype. With topk > 1, two launches (the
    inverse permutation, then the copy) and no host sync; warmup=True only compiles them (the inputs may be on
    the 'meta' device) and returns the tensor unfilled.
    """
    if topk == 1:
        return t.index_select(0, gather_indices)
    rows, (M, D) = gather_indices.shape[0], t.shape
    out = torch.empty((rows, D), dtype=t.dtype, device=t.device)
    positions = torch.empty_like(gather_indices)
    positions_grid = (triton.cdiv(rows, POSITIONS_BLOCK),)
    copy_grid = (triton.cdiv(D, BLOCK_D), triton.cdiv(M, BLOCK_TOKENS))
    copy_meta = dict(TOPK=topk, BLOCK_TOKENS=BLOCK_TOKENS, BLOCK_D=BLOCK_D)
    if warmup:
        sorted_positions_kernel.warmup(gather_indices, positions, rows, BLOCK=POSITIONS_BLOCK, grid=positions_grid)
        scatter_token_rows_kernel.warmup(t, out, positions, M, D, grid=copy_grid, **copy_meta)
    elif rows:
        sorted_positions_kernel[positions_grid](gather_indices, positions, rows, BLOCK=POSITIONS_BLOCK)
        scatter_token_rows_kernel[copy_grid](t, out, positions, M, D, **copy_meta)
    return out
