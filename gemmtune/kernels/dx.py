"""Backward grouped GEMM for the input: dX[rows of e] = dY[rows of e] · W[e] for every expert e, in one launch.

dy: (M·topk, N) in token·topk order with permute_y (rows gathered on load through gather_indices: sorted
    position i reads dY row gather_indices[i]; or ahead of the kernel with pregather), else sorted by expert.
w: (E, N, K). m_sizes: (E,) int32. gather_indices: (M·topk,) int32 (gemmtune.routing).
dx: (M·topk, K) in the input dtype; in token·topk order with permute_x (scattered on store through
    gather_indices; summing over topk gives the token gradient), else sorted by expert.
grid: (min(NUM_SMS, tiles),); tiles are (expert, M block, K block), each a loop over N, fp32 accumulation.
With half_tail, an expert's last M block that holds at most BLOCK_SIZE_M/2 rows is a BLOCK_SIZE_M/2-row tile.
With warp_specialize on Hopper the Gluon forward kernel computes dX instead (gemmtune.kernels.fwd_ws.launch_ws).
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from gemmtune.config import KernelConfigBackward_dX
from gemmtune.kernels.common import (
    check_launch,
    expert_tiles,
    launch,
    load_tile,
    locate_tile,
    prepare_tma,
    row_block_descriptors,
    runs_gluon_kernel,
    shared_meta,
    store_tile,
    swizzle_tile,
    tile_rows,
)
from gemmtune.kernels.pregather import gather_rows


@triton.jit
def dx_tile(
    dy_ptr,
    w_ptr,
    dx_ptr,
    gather_indices_ptr,
    dy_desc,
    w_desc,
    dx_desc,
    e,
    row_start,
    m_size,
    m0,
    k0,
    N,
    K,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    PERMUTE_X: tl.constexpr,
    PERMUTE_Y: tl.constexpr,
    USE_TMA_LOAD_DY: tl.constexpr,
    USE_TMA_LOAD_W: tl.constexpr,
    USE_TMA_STORE: tl.constexpr,
    EVEN_N: tl.constexpr,
    EVEN_K: tl.constexpr,
    DOT_FP32: tl.constexpr,
    DOT_PRECISION: tl.constexpr,
):
    """One dX tile: rows m0 … m0+BLOCK_SIZE_M of expert e (those below m_size are stored), columns k0 …
    k0+BLOCK_SIZE_K. The dY and dX descriptors' blocks have BLOCK_SIZE_M rows; None where their flag is off."""
    row_mask, rows, pairs = tile_rows(gather_indices_ptr, row_start, m_size, m0, BLOCK_SIZE_M, PERMUTE_X or PERMUTE_Y)
    if PERMUTE_Y:
        dy_row = pairs
    else:
        dy_row = rows
    offs_k = k0 + tl.arange(0, BLOCK_SIZE_K)
    k_mask = offs_k < K
    offs_n = tl.arange(0, BLOCK_SIZE_N)
    dy_ptrs = dy_ptr + dy_row.to(tl.int64)[:, None] * N + offs_n[None, :]
    # Columns past K are masked, not clamped: a clamped index hides the contiguity along K from the
    # compiler, which then loads W one element at a time (measured 8x slower on the H200).
    w_ptrs = w_ptr + (e.to(tl.int64) * N + offs_n)[:, None] * K + offs_k[None, :]

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_K), dtype=tl.float32)
    for n_tile in range(0, tl.cdiv(N, BLOCK_SIZE_N)):
        n0 = n_tile * BLOCK_SIZE_N
        n_mask = n0 + offs_n < N
        dy = load_tile(dy_desc, dy_ptrs, row_start + m0, n0, n_mask[None, :], USE_TMA_LOAD_DY, EVEN_N)
        # W's rows masked rather than relying on dY's zeros: past the last expert's row N lies no memory.
        w = load_tile(w_desc, w_ptrs, e * N + n0, k0, n_mask[:, None] & k_mask[None, :], USE_TMA_LOAD_W,
                      EVEN_N and EVEN_K)
        if DOT_FP32:
            dy = dy.to(tl.float32)
            w = w.to(tl.float32)
        acc = tl.dot(dy, w, acc, input_precision=DOT_PRECISION)
        dy_ptrs += BLOCK_SIZE_N
        w_ptrs += BLOCK_SIZE_N * K

    if PERMUTE_X:
        dst = pairs
    else:
        dst = rows
    dx = acc.to(dx_ptr.dtype.element_ty)
    store_tile(dx_ptr, dx_desc, dx, dst, row_mask, offs_k, k_mask, row_start + m0, k0, m0 + BLOCK_SIZE_M <= m_size, K,
               USE_TMA_STORE)


@triton.jit
def grouped_gemm_dX_kernel(
    dy_ptr,
    w_ptr,
    dx_ptr,
    m_sizes_ptr,
    gather_indices_ptr,
    total_rows,
    N,
    K,
    NUM_EXPERTS: tl.constexpr,
    E_PAD: tl.constexpr,
    NUM_SMS: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    GROUP_SIZE_M: tl.constexpr,
    HALF_TAIL: tl.constexpr,
    PERMUTE_X: tl.constexpr,
    PERMUTE_Y: tl.constexpr,
    USE_TMA_LOAD_DY: tl.constexpr,
    USE_TMA_LOAD_W: tl.constexpr,
    USE_TMA_STORE: tl.constexpr,
    EVEN_N: tl.constexpr,
    EVEN_K: tl.constexpr,
    FLATTEN: tl.constexpr,
    WARP_SPECIALIZE: tl.constexpr,
    DOT_FP32: tl.constexpr,
    DOT_PRECISION: tl.constexpr,
):
    pid = tl.program_id(0)
    num_k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    offs_e, m_sizes, row_end, tiles, tile_end, total_tiles = expert_tiles(
        m_sizes_ptr, NUM_EXPERTS, E_PAD, BLOCK_SIZE_M, num_k_tiles
    )
    HALF_M: tl.constexpr = BLOCK_SIZE_M // 2
    # Descriptors of the operands TMA moves; the others stay None.
    dy_desc = None
    dy_half_desc = None
    w_desc = None
    dx_desc = None
    dx_half_desc = None
    if USE_TMA_LOAD_DY:
        # Columns past N are zero-filled by TMA: they meet the rows of W past N (see below).
        dy_desc, dy_half_desc = row_block_descriptors(dy_ptr, total_rows, N, BLOCK_SIZE_M, BLOCK_SIZE_N, HALF_TAIL)
    if USE_TMA_LOAD_W:
        # W as (E·N, K): a block past row N of expert e reads expert e+1's rows (zeros past the last
        # expert). They are multiplied by the columns of dY past N, which are exactly zero (masked loads
        # give 0, TMA zero-fills past N), so they add nothing as long as W is finite.
        w_desc = tl.make_tensor_descriptor(w_ptr, [NUM_EXPERTS * N, K], [K, 1], [BLOCK_SIZE_N, BLOCK_SIZE_K])
    if USE_TMA_STORE:
        dx_desc, dx_half_desc = row_block_descriptors(dx_ptr, total_rows, K, BLOCK_SIZE_M, BLOCK_SIZE_K, HALF_TAIL)

    for tile_id in tl.range(pid, total_tiles, NUM_SMS, flatten=FLATTEN, warp_specialize=WARP_SPECIALIZE):
        e, row_start, m_size, local = locate_tile(tile_id, offs_e, m_sizes, row_end, tiles, tile_end)
        pid_m, pid_k = swizzle_tile(local, tl.cdiv(m_size, BLOCK_SIZE_M), num_k_tiles, GROUP_SIZE_M)
        m0 = pid_m * BLOCK_SIZE_M
        k0 = pid_k * BLOCK_SIZE_K
        if HALF_TAIL and m_size - m0 <= HALF_M:
            # An expert's last M block with at most half its rows: a half-height tile, not half padding.
            dx_tile(dy_ptr, w_ptr, dx_ptr, gather_indices_ptr, dy_half_desc, w_desc, dx_half_desc, e, row_start,
                    m_size, m0, k0, N, K, HALF_M, BLOCK_SIZE_N, BLOCK_SIZE_K, PERMUTE_X, PERMUTE_Y,
                    USE_TMA_LOAD_DY, USE_TMA_LOAD_W, USE_TMA_STORE, EVEN_N, EVEN_K, DOT_FP32, DOT_PRECISION)
        else:
            dx_tile(dy_ptr, w_ptr, dx_ptr, gather_indices_ptr, dy_desc, w_desc, dx_desc, e, row_start, m_size,
                    m0, k0, N, K, BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, PERMUTE_X, PERMUTE_Y,
                    USE_TMA_LOAD_DY, USE_TMA_LOAD_W, USE_TMA_STORE, EVEN_N, EVEN_K, DOT_FP32, DOT_PRECISION)


def grouped_gemm_dX(
    dy: torch.Tensor,
    w: torch.Tensor,
    m_sizes: torch.Tensor,
    gather_indices: torch.Tensor,
    config: KernelConfigBackward_dX,
    topk: int = 1,
    out: torch.Tensor | None = None,
    warmup: bool = False,
):
    """Launch the dX kernel; returns (dx, compiled kernel or None on the interpreter).

    Shapes as in the module docstring; all tensors contiguous on one device, dy and w of one dtype.
    Raises ValueError on a shape, dtype or flag mismatch, or a TMA operand that is not 16-byte aligned,
    with the offending value in the message.
    """
    E, N, K = w.shape
    rows = gather_indices.shape[0]
    if dy.dim() != 2 or dy.shape != (rows, N):
        raise ValueError(f"dy must be ({rows}, {N}), got {tuple(dy.shape)}")
    if dy.dtype != w.dtype:
        raise ValueError(f"dy and w must share a dtype, got {dy.dtype} and {w.dtype}")
    check_launch(config, m_sizes, gather_indices, E, rows, topk)
    if out is not None and (out.shape != (rows, K) or out.dtype != dy.dtype or not out.is_contiguous()):
        raise ValueError(f"out must be ({rows}, {K}) {dy.dtype} contiguous, got {tuple(out.shape)} {out.dtype}")
    dy, w = dy.contiguous(), w.contiguous()
    if config.pregather:  # dY in expert order ahead of the kernel, which reads it by TMA
        dy = gather_rows(dy, gather_indices, warmup=warmup)
    dx = out if out is not None else torch.empty((rows, K), dtype=dy.dtype, device=dy.device)
    if runs_gluon_kernel(config):
        from gemmtune.kernels import fwd_ws

        prepare_tma(dy.device, (("dy", True, dy), ("w", True, w), ("dx", config.use_tma_store, dx)))
        return dx, fwd_ws.launch_ws(dy, w, dx, m_sizes, gather_indices, None, config, topk, warmup)
    prepare_tma(dy.device, (("dy", config.use_tma_load_dy, dy), ("w", config.use_tma_load_w, w), ("dx", config.use_tma_store, dx)))
    tiles = (triton.cdiv(rows, config.BLOCK_SIZE_M) + E) * triton.cdiv(K, config.BLOCK_SIZE_K)  # an upper bound
    compiled = launch(
        grouped_gemm_dX_kernel,
        tiles,
        warmup,
        dy,
        w,
        dx,
        m_sizes,
        gather_indices,
        rows,
        N,
        K,
        USE_TMA_LOAD_DY=config.use_tma_load_dy,
        USE_TMA_LOAD_W=config.use_tma_load_w,
        EVEN_N=N % config.BLOCK_SIZE_N == 0,
        EVEN_K=K % config.BLOCK_SIZE_K == 0,
        HALF_TAIL=config.half_tail,
        **shared_meta(config, E, dy.dtype),
    )
    return dx, compiled
