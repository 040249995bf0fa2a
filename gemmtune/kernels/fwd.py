"""Forward grouped GEMM: Y[rows of e] = X[rows of e] · W[e]ᵀ for every expert e, in one persistent launch.

x: (M, K) in token order with permute_x (rows gathered on load through gather_indices // topk, or ahead of
   the kernel with pregather), else (M·topk, K) sorted by expert.
w: (E, N, K). m_sizes: (E,) int32. gather_indices: (M·topk,) int32 (gemmtune.routing).
y: (M·topk, N) in the input dtype; in token·topk order with permute_y (scattered on store through
   gather_indices, each row times topk_weights with fuse_mul_post), else sorted by expert.
grid: (min(NUM_SMS, tiles),); tiles are (expert, M block, N block), fp32 accumulation. With half_tail, an
expert's last M block that holds at most BLOCK_SIZE_M/2 rows is computed as a BLOCK_SIZE_M/2-row tile.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from gemmtune.config import KernelConfigForward
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
def forward_tile(
    x_ptr,
    w_ptr,
    y_ptr,
    gather_indices_ptr,
    topk_weights_ptr,
    x_desc,
    w_desc,
    y_desc,
    e,
    row_start,
    m_size,
    m0,
    n0,
    N,
    K,
    TOPK: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    PERMUTE_X: tl.constexpr,
    PERMUTE_Y: tl.constexpr,
    FUSE_MUL_POST: tl.constexpr,
    USE_TMA_LOAD_X: tl.constexpr,
    USE_TMA_LOAD_W: tl.constexpr,
    USE_TMA_STORE: tl.constexpr,
    EVEN_K: tl.constexpr,
    DOT_FP32: tl.constexpr,
    DOT_PRECISION: tl.constexpr,
):
    """One output tile: rows m0 … m0+BLOCK_SIZE_M of expert e (those below m_size are stored), columns n0 …
    n0+BLOCK_SIZE_N. The descriptors' blocks are (BLOCK_SIZE_M or BLOCK_SIZE_N, BLOCK_SIZE_K) and
    (BLOCK_SIZE_M, BLOCK_SIZE_N); None where their flag is off."""
    row_mask, rows, pairs = tile_rows(gather_indices_ptr, row_start, m_size, m0, BLOCK_SIZE_M, PERMUTE_X or PERMUTE_Y)
    if PERMUTE_X:
        x_row = pairs // TOPK
    else:
        x_row = rows
    offs_n = n0 + tl.arange(0, BLOCK_SIZE_N)
    n_mask = offs_n < N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    x_ptrs = x_ptr + x_row.to(tl.int64)[:, None] * K + offs_k[None, :]
    w_ptrs = w_ptr + (e.to(tl.int64) * N + tl.where(n_mask, offs_n, 0))[:, None] * K + offs_k[None, :]

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k_tile in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        k0 = k_tile * BLOCK_SIZE_K
        k_mask = (k0 + offs_k < K)[None, :]
        x = load_tile(x_desc, x_ptrs, row_start + m0, k0, k_mask, USE_TMA_LOAD_X, EVEN_K)
        w = load_tile(w_desc, w_ptrs, e * N + n0, k0, k_mask, USE_TMA_LOAD_W, EVEN_K)
        if DOT_FP32:
            x = x.to(tl.float32)
            w = w.to(tl.float32)
        acc = tl.dot(x, w.T, acc, input_precision=DOT_PRECISION)
        x_ptrs += BLOCK_SIZE_K
        w_ptrs += BLOCK_SIZE_K

    if PERMUTE_Y:
        dst = pairs
    else:
        dst = rows
    if FUSE_MUL_POST:
        acc *= tl.load(topk_weights_ptr + dst).to(tl.float32)[:, None]
    y = acc.to(y_ptr.dtype.element_ty)
    store_tile(y_ptr, y_desc, y, dst, row_mask, offs_n, n_mask, row_start + m0, n0, m0 + BLOCK_SIZE_M <= m_size, N,
               USE_TMA_STORE)


@triton.jit
def grouped_gemm_forward_kernel(
    x_ptr,
    w_ptr,
    y_ptr,
    m_sizes_ptr,
    gather_indices_ptr,
    topk_weights_ptr,
    total_rows,
    x_rows,
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
    HALF_TAIL: tl.constexpr,
    PERMUTE_X: tl.constexpr,
    PERMUTE_Y: tl.constexpr,
    FUSE_MUL_POST: tl.constexpr,
    USE_TMA_LOAD_X: tl.constexpr,
    USE_TMA_LOAD_W: tl.constexpr,
    USE_TMA_STORE: tl.constexpr,
    EVEN_K: tl.constexpr,
    FLATTEN: tl.constexpr,
    WARP_SPECIALIZE: tl.constexpr,
    DOT_FP32: tl.constexpr,
    DOT_PRECISION: tl.constexpr,
):
    pid = tl.program_id(0)
    num_n_tiles = tl.cdiv(N, BLOCK_SIZE_N)
    offs_e, m_sizes, row_end, tiles, tile_end, total_tiles = expert_tiles(
        m_sizes_ptr, NUM_EXPERTS, E_PAD, BLOCK_SIZE_M, num_n_tiles
    )
    HALF_M: tl.constexpr = BLOCK_SIZE_M // 2
    # Descriptors of the operands TMA moves; the others stay None.
    x_desc = None
    x_half_desc = None
    w_desc = None
    y_desc = None
    y_half_desc = None
    if USE_TMA_LOAD_X:
        x_desc, x_half_desc = row_block_descriptors(x_ptr, x_rows, K, BLOCK_SIZE_M, BLOCK_SIZE_K, HALF_TAIL)
    if USE_TMA_LOAD_W:
        # W as (E·N, K): a tile past row N of expert e reads expert e+1, and lands only in columns ≥ N,
        # which the store masks off.
        w_desc = tl.make_tensor_descriptor(w_ptr, [NUM_EXPERTS * N, K], [K, 1], [BLOCK_SIZE_N, BLOCK_SIZE_K])
    if USE_TMA_STORE:
        y_desc, y_half_desc = row_block_descriptors(y_ptr, total_rows, N, BLOCK_SIZE_M, BLOCK_SIZE_N, HALF_TAIL)

    for tile_id in tl.range(pid, total_tiles, NUM_SMS, flatten=FLATTEN, warp_specialize=WARP_SPECIALIZE):
        e, row_start, m_size, local = locate_tile(tile_id, offs_e, m_sizes, row_end, tiles, tile_end)
        pid_m, pid_n = swizzle_tile(local, tl.cdiv(m_size, BLOCK_SIZE_M), num_n_tiles, GROUP_SIZE_M)
        m0 = pid_m * BLOCK_SIZE_M
        n0 = pid_n * BLOCK_SIZE_N
        if HALF_TAIL and m_size - m0 <= HALF_M:
            # An expert's last M block with at most half its rows: a half-height tile, not half padding.
            forward_tile(x_ptr, w_ptr, y_ptr, gather_indices_ptr, topk_weights_ptr, x_half_desc, w_desc,
                         y_half_desc, e, row_start, m_size, m0, n0, N, K, TOPK, HALF_M, BLOCK_SIZE_N,
                         BLOCK_SIZE_K, PERMUTE_X, PERMUTE_Y, FUSE_MUL_POST, USE_TMA_LOAD_X, USE_TMA_LOAD_W,
                         USE_TMA_STORE, EVEN_K, DOT_FP32, DOT_PRECISION)
        else:
            forward_tile(x_ptr, w_ptr, y_ptr, gather_indices_ptr, topk_weights_ptr, x_desc, w_desc, y_desc, e,
                         row_start, m_size, m0, n0, N, K, TOPK, BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K,
                         PERMUTE_X, PERMUTE_Y, FUSE_MUL_POST, USE_TMA_LOAD_X, USE_TMA_LOAD_W, USE_TMA_STORE,
                         EVEN_K, DOT_FP32, DOT_PRECISION)


def grouped_gemm_forward(
    x: torch.Tensor,
    w: torch.Tensor,
    m_sizes: torch.Tensor,
    gather_indices: torch.Tensor,
    config: KernelConfigForward,
    topk: int = 1,
    topk_weights: torch.Tensor | None = None,
    out: torch.Tensor | None = None,
    warmup: bool = False,
):
    """Launch the forward kernel; returns (y, compiled kernel or None on the interpreter).

    Shapes as in the module docstring; all tensors contiguous on one device, x and w of one dtype.
    warmup=True compiles without launching (tensors may then live on the 'meta' device).
    Raises ValueError on a shape, dtype or flag mismatch, with the offending value in the message.
    """
    E, N, K = w.shape
    rows = gather_indices.shape[0]
    x_rows = rows // topk if config.permute_x else rows
    if x.dim() != 2 or x.shape != (x_rows, K):
        raise ValueError(f"x must be ({x_rows}, {K}) for permute_x={config.permute_x}, got {tuple(x.shape)}")
    if x.dtype != w.dtype:
        raise ValueError(f"x and w must share a dtype, got {x.dtype} and {w.dtype}")
    check_launch(config, m_sizes, gather_indices, E, rows, topk)
    if config.fuse_mul_post and (topk_weights is None or topk_weights.shape != (rows,)):
        raise ValueError(f"fuse_mul_post needs topk_weights of shape ({rows},)")
    x, w = x.contiguous(), w.contiguous()
    if config.pregather:  # X in expert order ahead of the kernel, which reads it by TMA
        x, x_rows = gather_rows(x, gather_indices, topk, warmup), rows
    y = out if out is not None else torch.empty((rows, N), dtype=x.dtype, device=x.device)
    if runs_gluon_kernel(config):
        from gemmtune.kernels import fwd_ws

        prepare_tma(x.device, (("x", True, x), ("w", True, w), ("y", config.use_tma_store, y)))
        return y, fwd_ws.launch_ws(x, w, y, m_sizes, gather_indices, topk_weights, config, topk, warmup)
    prepare_tma(x.device, (("x", config.use_tma_load_x, x), ("w", config.use_tma_load_w, w), ("y", config.use_tma_store, y)))
    tiles = (triton.cdiv(rows, config.BLOCK_SIZE_M) + E) * triton.cdiv(N, config.BLOCK_SIZE_N)  # an upper bound
    compiled = launch(
        grouped_gemm_forward_kernel,
        tiles,
        warmup,
        x,
        w,
        y,
        m_sizes,
        gather_indices,
        topk_weights if topk_weights is not None else y,
        rows,
        x_rows,
        N,
        K,
        TOPK=topk,
        FUSE_MUL_POST=config.fuse_mul_post,
        USE_TMA_LOAD_X=config.use_tma_load_x,
        USE_TMA_LOAD_W=config.use_tma_load_w,
        EVEN_K=K % config.BLOCK_SIZE_K == 0,
        HALF_TAIL=config.half_tail,
        **shared_meta(config, E, x.dtype),
    )
    return y, compiled
