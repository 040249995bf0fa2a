"""dW grouped GEMM with Hopper warp specialization, written in Gluon (triton.experimental.gluon).

Same problem and tiles as gemmtune.kernels.dw with SPLIT_M = 1: dW[e] (N, K) = dY[rows of e]ᵀ · X[rows of e],
a persistent grid over E · cdiv(N, BLOCK_SIZE_N) · cdiv(K, BLOCK_SIZE_K) output tiles (GROUP_SIZE_M groups
N blocks), each a reduction over its expert's rows in BLOCK_SIZE_M steps. What changes is who waits for what:
- a loader partition of one warp TMA-loads the dY and X blocks of every M step of every tile of its program
  into a ring of num_stages slots (`ready` / `empty` mbarriers per slot), running ahead across tile bounds;
- the default partition (num_warps warps) issues async wgmma (dYᵀ from shared memory, transposed there),
  releases each slot once its wgmma retired, and stores the tile, with use_tma_store by an asynchronous TMA
  store awaited only when the next tile needs the buffer, else from registers in whole 128-byte lines
  (hopper_ws.row_store_layout).
With few rows per expert (deepseek-v3: 128 at 4096 tokens, two M steps per tile) the plain kernel spends
most of a tile filling its pipeline and writing the tile; here the next tile's loads and this tile's store
overlap the MMAs.

Operands: dy (rows, N) and x (rows, K), both in expert order, read by TMA. The routed one (X under permute_x,
dY under permute_y) comes from the wrapper's padded gather (gemmtune.kernels.padded_gather: each expert's rows
start at a block boundary and end in zero rows), so a block past an expert's end multiplies the other
operand's rows there (the next expert's, finite data) by zeros. Without a routed operand both are packed: a
block that runs past its expert's last row loads the next expert's rows (or TMA's zeros past the last row),
and the MMA warps zero those rows of the dY slot in shared memory before its wgmma. That zeroing cost 1-3 %
of the kernel's time where most tiles end in a partial block (docs/perf-notes.md, entries 24 and 41).
"""

from __future__ import annotations

import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (
    fence_async_shared,
    mbarrier,
    tma,
    warpgroup_mma,
    warpgroup_mma_wait,
)

from gemmtune.config import KernelConfigBackward_dW
from gemmtune.kernels.common import e_pad, expert_rows, launch, num_sms, swizzle_tile
from gemmtune.kernels.hopper_ws import (
    LOADER_REGISTERS,
    LOADER_WARPS,
    accumulator_layout,
    expert_vectors,
    filled_slot,
    free_slot,
    invalidate_ring,
    release_previous_slot,
    ring_barriers,
    ring_slots,
    row_store_layout,
    tma_descriptor,
    tma_store_async,
    warp_uniform,
)


@gluon.jit
def uniform_expert_rows(e, offs_e, counts, ends):
    """gemmtune.kernels.common.expert_rows (expert e's start and count in the per-expert vectors `counts` and
    their prefix sums `ends`), both warp-uniform: in these partitions they give the loader's TMA coordinates and
    bound the M loops (warp_uniform)."""
    start, count = expert_rows(e, offs_e, counts, ends)
    return warp_uniform(start), warp_uniform(count)


@gluon.jit
def tile_origin(tile_id, offs_e, m_sizes, row_end, N, K, BLOCK_SIZE_N: gl.constexpr, BLOCK_SIZE_K: gl.constexpr,
                GROUP_SIZE_M: gl.constexpr):
    """(expert, its first sorted row, its row count, n0, k0) of flat output tile `tile_id`; every expert has
    cdiv(N, BLOCK_SIZE_N) · cdiv(K, BLOCK_SIZE_K) tiles, empty ones included. The row start and count are
    warp-uniform (uniform_expert_rows)."""
    num_n_tiles = gl.cdiv(N, BLOCK_SIZE_N)
    num_k_tiles = gl.cdiv(K, BLOCK_SIZE_K)
    e = tile_id // (num_n_tiles * num_k_tiles)
    pid_n, pid_k = swizzle_tile(tile_id % (num_n_tiles * num_k_tiles), num_n_tiles, num_k_tiles, GROUP_SIZE_M)
    row_start, m_size = uniform_expert_rows(e, offs_e, m_sizes, row_end)
    return e, row_start, m_size, pid_n * BLOCK_SIZE_N, pid_k * BLOCK_SIZE_K


@gluon.jit
def load_partition(dy_desc, x_desc, dy_slots, x_slots, ready, empty, m_sizes_ptr, N, K,
                   NUM_EXPERTS: gl.constexpr, E_PAD: gl.constexpr, NUM_SMS: gl.constexpr,
                   BLOCK_SIZE_M: gl.constexpr, BLOCK_SIZE_N: gl.constexpr, BLOCK_SIZE_K: gl.constexpr,
                   GROUP_SIZE_M: gl.constexpr, NUM_STAGES: gl.constexpr, X_PADDED: gl.constexpr,
                   DY_PADDED: gl.constexpr):
    """Fill the ring: for every M step of every tile of this program, wait for a free slot, then TMA dY and X
    (the padded one at its padded rows)."""
    offs_e, m_sizes, row_end, blocks, block_end, _ = expert_vectors(m_sizes_ptr, NUM_EXPERTS, E_PAD, BLOCK_SIZE_M, 1)
    total_tiles = NUM_EXPERTS * gl.cdiv(N, BLOCK_SIZE_N) * gl.cdiv(K, BLOCK_SIZE_K)
    step_bytes: gl.constexpr = dy_desc.block_type.nbytes + x_desc.block_type.nbytes
    step = 0
    for tile_id in range(gl.program_id(0), total_tiles, NUM_SMS):
        e, row_start, m_size, n0, k0 = tile_origin(tile_id, offs_e, m_sizes, row_end, N, K, BLOCK_SIZE_N,
                                                   BLOCK_SIZE_K, GROUP_SIZE_M)
        # The padded layout (gemmtune.kernels.padded_gather) starts expert e at its first M block: the same
        # prefix sum as its first row, over block counts.
        first_block, _ = uniform_expert_rows(e, offs_e, blocks, block_end)
        padded_start = first_block * BLOCK_SIZE_M
        dy_start = padded_start if DY_PADDED else row_start
        x_start = padded_start if X_PADDED else row_start
        for m_block in range(gl.cdiv(m_size, BLOCK_SIZE_M)):
            slot = free_slot(empty, step, NUM_STAGES)
            mbarrier.expect(ready.index(slot), step_bytes)
            m0 = m_block * BLOCK_SIZE_M
            tma.async_copy_global_to_shared(dy_desc, [dy_start + m0, n0], ready.index(slot), dy_slots.index(slot))
            tma.async_copy_global_to_shared(x_desc, [x_start + m0, k0], ready.index(slot), x_slots.index(slot))
            step += 1


@gluon.jit
def zero_rows_from(slot, first_row):
    """Zero the rows of a (BLOCK_SIZE_M, cols) shared-memory slot from `first_row` on, before a wgmma reads it."""
    layout: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [gl.num_warps(), 1], [1, 0])
    tile = slot.load(layout)
    offs_m = gl.arange(0, slot.shape[0], layout=gl.SliceLayout(1, layout))
    keep = gl.expand_dims(offs_m < first_row, 1)
    slot.store(gl.where(keep, tile, gl.zeros_like(tile)))
    fence_async_shared()  # the generic-proxy stores before the async-proxy wgmma reads


@gluon.jit
def mma_partition(dy_slots, x_slots, ready, empty, dw_desc, dw_slot, dw_ptr, m_sizes_ptr, N, K,
                  NUM_EXPERTS: gl.constexpr, E_PAD: gl.constexpr, NUM_SMS: gl.constexpr,
                  BLOCK_SIZE_M: gl.constexpr, BLOCK_SIZE_N: gl.constexpr, BLOCK_SIZE_K: gl.constexpr,
                  GROUP_SIZE_M: gl.constexpr, NUM_STAGES: gl.constexpr, USE_TMA_STORE: gl.constexpr,
                  ZERO_PAST_END: gl.constexpr):
    """Consume the ring with async wgmma (one in flight while the next slot is awaited), then store the tile."""
    acc_layout: gl.constexpr = accumulator_layout(BLOCK_SIZE_N, BLOCK_SIZE_K, gl.num_warps())
    offs_e, m_sizes, row_end, _, _, _ = expert_vectors(m_sizes_ptr, NUM_EXPERTS, E_PAD, BLOCK_SIZE_M, 1)
    total_tiles = NUM_EXPERTS * gl.cdiv(N, BLOCK_SIZE_N) * gl.cdiv(K, BLOCK_SIZE_K)
    step = 0
    for tile_id in range(gl.program_id(0), total_tiles, NUM_SMS):
        e, row_start, m_size, n0, k0 = tile_origin(tile_id, offs_e, m_sizes, row_end, N, K, BLOCK_SIZE_N,
                                                   BLOCK_SIZE_K, GROUP_SIZE_M)
        m_steps = gl.cdiv(m_size, BLOCK_SIZE_M)
        acc = gl.zeros((BLOCK_SIZE_N, BLOCK_SIZE_K), gl.float32, acc_layout)
        for m_block in range(m_steps):
            slot = filled_slot(ready, step, NUM_STAGES)
            dy = dy_slots.index(slot)
            x = x_slots.index(slot)
            if ZERO_PAST_END:  # no padded operand: the next expert's rows must not reach the sum
                if (m_block + 1) * BLOCK_SIZE_M > m_size:
                    zero_rows_from(dy, m_size - m_block * BLOCK_SIZE_M)
            acc = warpgroup_mma(dy.permute((1, 0)), x, acc, is_async=True)
            acc, dy, x = warpgroup_mma_wait(1, deps=[acc, dy, x])
            release_previous_slot(empty, step, NUM_STAGES, m_block > 0)
            step += 1
        acc = warpgroup_mma_wait(0, deps=[acc])
        # An empty expert's tile took no step and holds no slot; its dW is the zero accumulator.
        release_previous_slot(empty, step, NUM_STAGES, m_steps > 0)

        dw = acc.to(dw_ptr.dtype.element_ty)
        if USE_TMA_STORE and n0 + BLOCK_SIZE_N <= N:
            # Asynchronous: the next tile's MMAs run while TMA writes this one. dW is an (E·N, K) matrix
            # here, so only a tile within the expert's N rows goes this way; TMA clips the columns past K.
            tma_store_async(dw_desc, e * N + n0, k0, dw_slot, dw)
        else:
            store_layout: gl.constexpr = row_store_layout(acc_layout, BLOCK_SIZE_K)  # 16-byte stores
            dw_rows = gl.convert_layout(dw, store_layout)
            offs_n = n0 + gl.arange(0, BLOCK_SIZE_N, layout=gl.SliceLayout(1, store_layout))
            offs_k = k0 + gl.arange(0, BLOCK_SIZE_K, layout=gl.SliceLayout(0, store_layout))
            ptrs = (dw_ptr + e.to(gl.int64) * N * K + gl.expand_dims(offs_n.to(gl.int64) * K, 1)
                    + gl.expand_dims(offs_k, 0))
            gl.store(ptrs, dw_rows, mask=gl.expand_dims(offs_n < N, 1) & gl.expand_dims(offs_k < K, 0))
    if USE_TMA_STORE:
        tma.store_wait(0)


@gluon.jit
def grouped_gemm_dW_ws_kernel(
    dy_desc,
    x_desc,
    dw_desc,
    dw_ptr,
    m_sizes_ptr,
    N,
    K,
    NUM_EXPERTS: gl.constexpr,
    E_PAD: gl.constexpr,
    NUM_SMS: gl.constexpr,
    BLOCK_SIZE_M: gl.constexpr,
    BLOCK_SIZE_N: gl.constexpr,
    BLOCK_SIZE_K: gl.constexpr,
    GROUP_SIZE_M: gl.constexpr,
    NUM_STAGES: gl.constexpr,
    USE_TMA_STORE: gl.constexpr,
    X_PADDED: gl.constexpr,
    DY_PADDED: gl.constexpr,
):
    dy_slots = ring_slots(dy_desc, NUM_STAGES)
    x_slots = ring_slots(x_desc, NUM_STAGES)
    if USE_TMA_STORE:
        dw_slot = gl.allocate_shared_memory(dw_desc.dtype, dw_desc.block_type.shape, dw_desc.layout)
    else:  # partitions take no None: stand-ins that the constexpr-false branch never touches
        dw_desc = x_desc
        dw_slot = x_slots
    ready, empty = ring_barriers(NUM_STAGES)

    gl.warp_specialize(
        [
            (mma_partition, (dy_slots, x_slots, ready, empty, dw_desc, dw_slot, dw_ptr, m_sizes_ptr, N, K,
                             NUM_EXPERTS, E_PAD, NUM_SMS, BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, GROUP_SIZE_M,
                             NUM_STAGES, USE_TMA_STORE, not (X_PADDED or DY_PADDED))),
            (load_partition, (dy_desc, x_desc, dy_slots, x_slots, ready, empty, m_sizes_ptr, N, K, NUM_EXPERTS,
                              E_PAD, NUM_SMS, BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, GROUP_SIZE_M, NUM_STAGES,
                              X_PADDED, DY_PADDED)),
        ],
        [LOADER_WARPS],
        [LOADER_REGISTERS],
    )

    invalidate_ring(ready, empty, NUM_STAGES)


def launch_dw_ws(x, dy, dw, m_sizes, config: KernelConfigBackward_dW, warmup: bool, padded: str | None = None):
    """Launch the warp-specialized dW kernel (or only compile it with warmup=True).

    x: (rows, K) and dy: (rows, N), both in expert order; padded names the one ("x" or "dy") in the padded
    layout of gemmtune.kernels.padded_gather with BLOCK_SIZE_M-row blocks (more rows than the other), or None
    when both are packed. dw: (E, N, K); all 16-byte aligned (checked by the caller). Returns Triton's compiled
    kernel.
    """
    E, N, K = dw.shape
    BM, BN, BK = config.BLOCK_SIZE_M, config.BLOCK_SIZE_N, config.BLOCK_SIZE_K
    dy_desc = tma_descriptor(dy, dy.shape[0], N, [BM, BN])
    x_desc = tma_descriptor(x, x.shape[0], K, [BM, BK])
    dw_desc = tma_descriptor(dw, E * N, K, [BN, BK]) if config.use_tma_store else None
    return launch(
        grouped_gemm_dW_ws_kernel,
        E * triton.cdiv(N, BN) * triton.cdiv(K, BK),
        warmup,
        dy_desc,
        x_desc,
        dw_desc,
        dw,
        m_sizes,
        N,
        K,
        NUM_EXPERTS=E,
        E_PAD=e_pad(E),
        NUM_SMS=num_sms(),
        BLOCK_SIZE_M=BM,
        BLOCK_SIZE_N=BN,
        BLOCK_SIZE_K=BK,
        GROUP_SIZE_M=config.GROUP_SIZE_M,
        NUM_STAGES=config.num_stages,
        USE_TMA_STORE=config.use_tma_store,
        X_PADDED=padded == "x",
        DY_PADDED=padded == "dy",
        num_warps=config.num_warps,
    )
