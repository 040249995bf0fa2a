"""Rows in expert order, each expert's rows padded with zero rows to a whole number of blocks.

The warp-specialized dW kernel (gemmtune.kernels.dw_ws) reduces over an expert's rows in BLOCK_SIZE_M steps,
loading whole blocks by TMA. With both operands packed, an expert's last block runs into the next expert's
rows, and its MMA warps had to zero those rows of the dY slot in shared memory before the wgmma (1-3 % of the
kernel's time on the H200, docs/perf-notes.md entries 24 and 41). With the routed operand gathered into this
layout instead, the rows past an expert's end are zeros in memory, their products with the other operand's
rows are zero, and the kernel reads each block as it is: 1.02-1.06× on seven dW suite shapes (entry 41). The
gather was a copy anyway (pregather); the padding adds at most BLOCK_ROWS - 1 zero rows per expert to it.

Layout: expert e's rows start at row padded_start[e] = BLOCK_ROWS · Σ_{e' < e} cdiv(m_sizes[e'], BLOCK_ROWS);
rows padded_start[e] + m_sizes[e] … up to the next multiple of BLOCK_ROWS are zero. The tensor has
padded_rows(...) rows, an upper bound known without a host sync; the rows past the last expert's blocks are
never written, nor read by the kernel.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from gemmtune.kernels.common import e_pad, expert_tiles, locate_tile


def padded_rows(rows: int, E: int, block_rows: int) -> int:
    """Rows of the padded layout for `rows` rows over E experts: Σ cdiv(m_e, block_rows) · block_rows is at
    most rows + E · (block_rows - 1), rounded down to whole blocks."""
    return (rows + E * (block_rows - 1)) // block_rows * block_rows


@triton.jit
def padded_gather_kernel(src_ptr, dst_ptr, gather_indices_ptr, m_sizes_ptr, D, NUM_EXPERTS: tl.constexpr,
                         E_PAD: tl.constexpr, TOPK: tl.constexpr, BLOCK_ROWS: tl.constexpr, BLOCK_D: tl.constexpr):
    """Program (b, d): padded block b (whole blocks never straddle experts), columns d·BLOCK_D … of dst. The
    blocks are the GEMM kernels' M blocks with one tile each, located the same way (expert_tiles, locate_tile)."""
    block = tl.program_id(0)
    offs_e, m_sizes, row_end, blocks, block_end, total_blocks = expert_tiles(m_sizes_ptr, NUM_EXPERTS, E_PAD,
                                                                             BLOCK_ROWS, 1)
    live = block < total_blocks  # past the last expert's blocks: nothing to write
    _, row_start, m_size, local_block = locate_tile(block, offs_e, m_sizes, row_end, blocks, block_end)
    local = local_block * BLOCK_ROWS + tl.arange(0, BLOCK_ROWS)
    real = live & (local < m_size)
    src_rows = tl.load(gather_indices_ptr + row_start + local, mask=real, other=0) // TOPK
    offs_d = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    d_mask = offs_d < D
    values = tl.load(src_ptr + src_rows.to(tl.int64)[:, None] * D + offs_d[None, :],
                     mask=real[:, None] & d_mask[None, :], other=0.0)
    dst_rows = block.to(tl.int64) * BLOCK_ROWS + tl.arange(0, BLOCK_ROWS)
    tl.store(dst_ptr + dst_rows[:, None] * D + offs_d[None, :], values, mask=live & d_mask[None, :])


def gather_rows_padded(t: torch.Tensor, gather_indices: torch.Tensor, m_sizes: torch.Tensor, topk: int,
                       block_rows: int, warmup: bool = False) -> torch.Tensor:
    """The rows of `t` in expert order, each expert's padded with zero rows to a multiple of block_rows.

    t: (M, D) in token order with topk > 1 (expert-order row i is t[gather_indices[i] // topk]: X), or
    (M·topk, D) in token·topk order with topk = 1 (row i is t[gather_indices[i]]: dY); contiguous.
    gather_indices: (M·topk,) int32; m_sizes: (E,) int32 on t's device; block_rows: a power of two.
    Returns a new (padded_rows(M·topk, E, block_rows), D) tensor of t's dtype in the layout of the module
    docstring. One launch, no host sync. warmup=True only compiles the kernel (the inputs may be on the
    'meta' device) and returns the tensor unfilled.
    """
    rows, E, D = gather_indices.shape[0], m_sizes.shape[0], t.shape[1]
    out = torch.empty((padded_rows(rows, E, block_rows), D), dtype=t.dtype, device=t.device)
    block_d = min(128, triton.next_power_of_2(D))
    grid = (max(1, out.shape[0] // block_rows), triton.cdiv(D, block_d))
    meta = dict(NUM_EXPERTS=E, E_PAD=e_pad(E), TOPK=topk, BLOCK_ROWS=block_rows, BLOCK_D=block_d)
    if warmup:
        padded_gather_kernel.warmup(t, out, gather_indices, m_sizes, D, grid=grid, **meta)
    elif out.numel():
        padded_gather_kernel[grid](t, out, gather_indices, m_sizes, D, **meta)
    return out
