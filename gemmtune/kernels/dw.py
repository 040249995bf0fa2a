"""Backward grouped GEMM for the weights: dW[e] = dY[rows of e]ᵀ · X[rows of e] for every expert e, in one launch.

x: (M, K) in token order with permute_x (rows gathered on load through gather_indices // topk, or ahead of
   the kernel with pregather), else (M·topk, K) sorted by expert.
dy: (M·topk, N) in token·topk order with permute_y (rows gathered on load through gather_indices, or ahead
    with pregather), else sorted by expert.
m_sizes: (E,) int32. gather_indices: (M·topk,) int32 (gemmtune.routing).
dw: (E, N, K) in the input dtype; an expert with no rows gets zeros.
grid: (min(NUM_SMS, tiles),); tiles are (expert, M split, N block, K block), E·SPLIT_M·cdiv(N, BLOCK_SIZE_N)·
cdiv(K, BLOCK_SIZE_K) of them whatever the routing, each a loop over its share of the expert's rows in
BLOCK_SIZE_M steps, fp32 accumulation. GROUP_SIZE_M groups N blocks here: that many consecutive tiles
share each K block of X in L2. SPLIT_M > 1 adds fp32 partial sums with atomics into a zeroed fp32 buffer
(the output itself for fp32; else a scratch buffer the wrapper casts back), so the result is not bitwise
deterministic. use_tma_store stores through an (E, N, K) descriptor and needs SPLIT_M == 1.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from gemmtune.config import KernelConfigBackward_dW
from gemmtune.kernels.common import (
    check_launch,
    expert_rows,
    expert_tiles,
    launch,
    prepare_tma,
    runs_gluon_kernel,
    shared_meta,
    swizzle_tile,
)
from gemmtune.kernels.padded_gather import gather_rows_padded
from gemmtune.kernels.pregather import gather_rows


@triton.jit
def grouped_gemm_dW_kernel(
    x_ptr,
    dy_ptr,
    dw_ptr,
    m_sizes_ptr,
    gather_indices_ptr,
    total_rows,
    N,
    K,
    NUM_EXPERTS: tl.constexpr,
    E_PAD: tl.constexpr,
    TOPK: tl.constexpr,
    NUM_SMS: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    GROUP_SIZE_M: tl.constexpr,
    SPLIT_M: tl.constexpr,
    PERMUTE_X: tl.constexpr,
    PERMUTE_Y: tl.constexpr,
    USE_TMA_LOAD_X: tl.constexpr,
    USE_TMA_LOAD_DY: tl.constexpr,
    USE_TMA_STORE: tl.constexpr,
    FLATTEN: tl.constexpr,
    WARP_SPECIALIZE: tl.constexpr,
    DOT_FP32: tl.constexpr,
    DOT_PRECISION: tl.constexpr,
):
    pid = tl.program_id(0)
    num_n_tiles = tl.cdiv(N, BLOCK_SIZE_N)
    num_k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    tiles_per_split = num_n_tiles * num_k_tiles
    tiles_per_expert = tiles_per_split * SPLIT_M
    total_tiles = NUM_EXPERTS * tiles_per_expert
    # Only the row offsets are needed: every expert has the same tiles, empty ones included.
    offs_e, m_sizes, row_end, m_tiles, m_tile_end, m_tile_total = expert_tiles(
        m_sizes_ptr, NUM_EXPERTS, E_PAD, BLOCK_SIZE_M, 1
    )
    if USE_TMA_LOAD_X:
        # Rows past the expert's end read the next expert's rows (zeros past the last row): they meet
        # rows of dY that are zero (masked, or zeroed below), so they add nothing as long as X is finite.
        x_desc = tl.make_tensor_descriptor(x_ptr, [total_rows, K], [K, 1], [BLOCK_SIZE_M, BLOCK_SIZE_K])
    if USE_TMA_LOAD_DY:
        dy_desc = tl.make_tensor_descriptor(dy_ptr, [total_rows, N], [N, 1], [BLOCK_SIZE_M, BLOCK_SIZE_N])
    if USE_TMA_STORE:
        # (E, N, K) rather than (E·N, K): a block past row N is clipped instead of writing expert e+1.
        dw_desc = tl.make_tensor_descriptor(
            dw_ptr, [NUM_EXPERTS, N, K], [N * K, K, 1], [1, BLOCK_SIZE_N, BLOCK_SIZE_K]
        )

    for tile_id in tl.range(pid, total_tiles, NUM_SMS, flatten=FLATTEN, warp_specialize=WARP_SPECIALIZE):
        e = tile_id // tiles_per_expert
        local = tile_id % tiles_per_expert
        split = local // tiles_per_split
        pid_n, pid_k = swizzle_tile(local % tiles_per_split, num_n_tiles, num_k_tiles, GROUP_SIZE_M)
        row_start, m_size = expert_rows(e, offs_e, m_sizes, row_end)
        # This split's M blocks: a contiguous 1/SPLIT_M share of the expert's, empty for an empty expert.
        num_m_blocks = tl.cdiv(m_size, BLOCK_SIZE_M)
        blocks_per_split = tl.cdiv(num_m_blocks, SPLIT_M)
        m_block_start = split * blocks_per_split
        m_block_end = tl.minimum(m_block_start + blocks_per_split, num_m_blocks)

        offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
        n_mask = offs_n < N
        offs_k = pid_k * BLOCK_SIZE_K + tl.arange(0, BLOCK_SIZE_K)
        k_mask = offs_k < K
        # Columns past N or K are masked, not clamped: a clamped index hides the contiguity of the rows
        # from the compiler, which then loads one element at a time (measured 20x slower on the H200).

        acc = tl.zeros((BLOCK_SIZE_N, BLOCK_SIZE_K), dtype=tl.float32)
        if PERMUTE_X or PERMUTE_Y:
            # The gather indices of each M block are loaded one iteration ahead: rows whose address comes
            # from a load in the same iteration keep Triton's pipeliner to one buffer in flight.
            # Masked: an empty last expert's row_start is the row count itself, one past the array.
            offs_first = m_block_start * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
            next_pairs = tl.load(gather_indices_ptr + row_start + offs_first, mask=offs_first < m_size, other=0)
        for m_block in range(m_block_start, m_block_end):
            offs_m = m_block * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
            row_mask = offs_m < m_size
            # Rows past the expert's end index row_start (always valid) and load as zeros.
            rows = row_start + tl.where(row_mask, offs_m, 0)
            if PERMUTE_X or PERMUTE_Y:
                pairs = next_pairs
                offs_next = offs_m + BLOCK_SIZE_M
                next_pairs = tl.load(gather_indices_ptr + row_start + tl.where(offs_next < m_size, offs_next, 0))
            if USE_TMA_LOAD_DY:
                dy = dy_desc.load([row_start + m_block * BLOCK_SIZE_M, pid_n * BLOCK_SIZE_N])
                if USE_TMA_LOAD_X:
                    # Both operands carry M and neither is masked: the next expert's rows must not reach
                    # the dot. (With one masked operand its zeros suffice, and dY stays in shared memory.)
                    dy = tl.where(row_mask[:, None], dy, 0.0)
            else:
                if PERMUTE_Y:
                    dy_row = pairs
                else:
                    dy_row = rows
                dy_ptrs = dy_ptr + dy_row.to(tl.int64)[:, None] * N + offs_n[None, :]
                dy = tl.load(dy_ptrs, mask=row_mask[:, None] & n_mask[None, :], other=0.0)
            if USE_TMA_LOAD_X:
                x = x_desc.load([row_start + m_block * BLOCK_SIZE_M, pid_k * BLOCK_SIZE_K])
            else:
                if PERMUTE_X:
                    x_row = pairs // TOPK
                else:
                    x_row = rows
                x_ptrs = x_ptr + x_row.to(tl.int64)[:, None] * K + offs_k[None, :]
                x = tl.load(x_ptrs, mask=row_mask[:, None] & k_mask[None, :], other=0.0)
            if DOT_FP32:
                dy = dy.to(tl.float32)
                x = x.to(tl.float32)
            acc = tl.dot(dy.T, x, acc, input_precision=DOT_PRECISION)

        dw_ptrs = dw_ptr + e.to(tl.int64) * N * K + offs_n.to(tl.int64)[:, None] * K + offs_k[None, :]
        store_mask = n_mask[:, None] & k_mask[None, :]
        if SPLIT_M == 1:
            dw = acc.to(dw_ptr.dtype.element_ty)
            if USE_TMA_STORE:
                dw_desc.store([e, pid_n * BLOCK_SIZE_N, pid_k * BLOCK_SIZE_K], dw[None, :, :])
            else:
                tl.store(dw_ptrs, dw, mask=store_mask)
        else:
            # dw_ptr is a zeroed fp32 buffer: a split without rows (an empty expert) has nothing to add.
            if m_block_end > m_block_start:
                tl.atomic_add(dw_ptrs, acc, mask=store_mask, sem="relaxed")


def grouped_gemm_dW(
    x: torch.Tensor,
    dy: torch.Tensor,
    m_sizes: torch.Tensor,
    gather_indices: torch.Tensor,
    config: KernelConfigBackward_dW,
    topk: int = 1,
    out: torch.Tensor | None = None,
    warmup: bool = False,
):
    """Launch the dW kernel; returns (dw, compiled kernel or None on the interpreter).

    warmup=True compiles without launching (tensors may then live on the 'meta' device).
    Shapes as in the module docstring; all tensors contiguous on one device, x and dy of one dtype.
    With SPLIT_M > 1 the output is zeroed first (and, below fp32, accumulated in an fp32 scratch buffer
    then copied into it): two extra torch ops around the launch.
    Raises ValueError on a shape, dtype or flag mismatch, or a TMA operand that is not 16-byte aligned,
    with the offending value in the message.
    """
    if m_sizes.dim() != 1:
        raise ValueError(f"m_sizes must be (E,) int32, got {tuple(m_sizes.shape)} {m_sizes.dtype}")
    E = m_sizes.shape[0]
    rows = gather_indices.shape[0]
    if dy.dim() != 2 or dy.shape[0] != rows:
        raise ValueError(f"dy must be ({rows}, N), got {tuple(dy.shape)}")
    N = dy.shape[1]
    x_rows = rows // topk if config.permute_x else rows
    if x.dim() != 2 or x.shape[0] != x_rows:
        raise ValueError(f"x must be ({x_rows}, K) for permute_x={config.permute_x}, got {tuple(x.shape)}")
    K = x.shape[1]
    if x.dtype != dy.dtype:
        raise ValueError(f"x and dy must share a dtype, got {x.dtype} and {dy.dtype}")
    if not isinstance(config.SPLIT_M, int) or config.SPLIT_M < 1:
        raise ValueError(f"SPLIT_M must be a positive int, got {config.SPLIT_M!r}")
    check_launch(config, m_sizes, gather_indices, E, rows, topk)
    if out is not None and (out.shape != (E, N, K) or out.dtype != x.dtype or not out.is_contiguous()):
        raise ValueError(f"out must be ({E}, {N}, {K}) {x.dtype} contiguous, got {tuple(out.shape)} {out.dtype}")
    x, dy = x.contiguous(), dy.contiguous()
    dw = out if out is not None else torch.empty((E, N, K), dtype=x.dtype, device=x.device)
    if runs_gluon_kernel(config):
        from gemmtune.kernels import dw_ws

        # The routed operand in expert order with each expert padded to whole M blocks of zero rows, so the
        # kernel need not zero the rows past an expert's end (gemmtune.kernels.padded_gather). Pruning keeps
        # pregather to a problem with a routed operand.
        padded = None
        if config.pregather and config.permute_x:
            x, padded = gather_rows_padded(x, gather_indices, m_sizes, topk, config.BLOCK_SIZE_M, warmup), "x"
        elif config.pregather:
            dy, padded = gather_rows_padded(dy, gather_indices, m_sizes, 1, config.BLOCK_SIZE_M, warmup), "dy"
        prepare_tma(x.device, (("x", True, x), ("dy", True, dy), ("dw", config.use_tma_store, dw)))
        return dw, dw_ws.launch_dw_ws(x, dy, dw, m_sizes, config, warmup, padded)
    if config.pregather:  # the gathered operand in expert order ahead of the kernel, which reads it by TMA
        if config.permute_x:
            x = gather_rows(x, gather_indices, topk, warmup)
        else:
            dy = gather_rows(dy, gather_indices, warmup=warmup)
    if config.SPLIT_M > 1:
        acc = dw.zero_() if dw.dtype == torch.float32 else torch.zeros((E, N, K), dtype=torch.float32, device=x.device)
    else:
        acc = dw
    prepare_tma(x.device, (("x", config.use_tma_load_x, x), ("dy", config.use_tma_load_dy, dy), ("dw", config.use_tma_store, dw)))
    tiles = E * config.SPLIT_M * triton.cdiv(N, config.BLOCK_SIZE_N) * triton.cdiv(K, config.BLOCK_SIZE_K)
    compiled = launch(
        grouped_gemm_dW_kernel,
        tiles,
        warmup,
        x,
        dy,
        acc,
        m_sizes,
        gather_indices,
        rows,
        N,
        K,
        TOPK=topk,
        SPLIT_M=config.SPLIT_M,
        USE_TMA_LOAD_X=config.use_tma_load_x,
        USE_TMA_LOAD_DY=config.use_tma_load_dy,
        **shared_meta(config, E, x.dtype),
    )
    if acc is not dw and not warmup:
        dw.copy_(acc)
    return dw, compiled
