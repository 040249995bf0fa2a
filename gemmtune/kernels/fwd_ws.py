"""Forward grouped GEMM with Hopper warp specialization, written in Gluon (triton.experimental.gluon).

Same problem and schedule as gemmtune.kernels.fwd (persistent grid, flat tile list over (expert, M block,
N block), GROUP_SIZE_M swizzle), with the loads and the MMAs in separate warps. With dynamic_schedule a
program's tiles after its first come from an atomic counter, claimed by the loader, which hands each tile's
id to the MMA warps through the ring (docs/perf-notes.md, entry 37):
- a loader partition of one warp issues the TMA loads of X and W tiles into a ring of num_stages shared
  memory slots, each slot with a `ready` mbarrier (TMA bytes landed) and an `empty` one (MMAs done with it);
  under permute_x without pregather it is a warpgroup that gathers X's rows by 16-byte cp.async instead;
- the default partition (num_warps warps, one or two warpgroups) waits on `ready`, issues async wgmma,
  releases each slot once the wgmma that read it has retired, and runs the epilogue.
The loader runs ahead across tile boundaries, so the next tile's first loads overlap this tile's epilogue.
In the K loop only the MMA warps synchronize, among themselves (the PTX has two `bar.sync 0, 256` per step
with 8 warps: before the mbarrier wait and before the one-thread release); the loader warp never waits
for them except on a full ring.

Operands: X (rows, K) in expert order (pregathered under permute_x) read by TMA, or under permute_x without
pregather X in token order, its rows gathered by the loader; W (E, N, K) read by TMA. Y is stored from
registers in whole 128-byte lines (row_store_layout), scattered through gather_indices under permute_y and
scaled by topk_weights with fuse_mul_post; with use_tma_store a tile whose rows all belong to the
expert goes out by an asynchronous TMA store instead (awaited only before the next one reuses its buffer).
Rows past an expert's end are loaded (they belong to the next expert or are TMA's zero fill) and never
stored; columns past N likewise.
With TAIL_ROWS, an expert's last few rows (at most TAIL_ROWS past a full block) are computed by that block's
tile: a second wgmma per K step multiplies the W tile already in shared memory by the tail's X rows, with
the rows on the wgmma's N side, and the tail is stored transposed from registers. With SPLIT_TAIL (split_tail)
every tile of the expert's column computes the tail over its share of the K steps and adds it into fp32 sums
in global memory; the last to arrive stores them (add_tail_share). With COLUMN_TAIL (column_tail) the tiles of the
expert's last two blocks each compute it over half of the block's columns, so the two do equal work and keep step
over their shared W block (docs/perf-notes.md, entry 69).
An output block that is not a power of two (BLOCK_SIZE_N 192, 320 or 384; gemmtune.pruning.split_columns) is
two accumulators, 256 + 128 columns for 384, each multiplied by its own W block from its own TMA box (Gluon
shapes are powers of two, a wgmma's N need not be), and stored one after the other.
Gluon kernels do not run on Triton's interpreter. Measured on the H200 with 128×256 tiles it runs 0.96-0.98x
the plain kernel (docs/perf-notes.md, entry 33); it wins with merged tails where one tile holds an expert's
rows (entries 15 and 31), on some down GEMMs, and with the loader's gather on gate_up GEMMs whose N is
small enough that pregather's copy costs more than the gather's slower loads (entry 34).

dX = dY · W[e] runs on the same kernel (DX, launch_ws; entry 39): dY in X's place, dX in Y's, W[e]'s N the
reduction and its K the output columns. The loader reads the same (BLOCK_SIZE_N, BLOCK_SIZE_K) blocks of W
at (reduction step, output columns), and the MMA warps take each transposed, as the forward's (output,
reduction) block. Inside the kernel N and K are the GEMM's output columns and reduction length, and
BLOCK_SIZE_N and BLOCK_SIZE_K its blocks of them: W's own in the forward, swapped in dX. dX's rows are
scattered under permute_x (SCATTER_ROWS), and dY's rows gathered under permute_y (GATHER_ROWS, TOPK 1).
"""

from __future__ import annotations

import torch
import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.ampere import async_copy
from triton.experimental.gluon.language.nvidia.hopper import (
    fence_async_shared,
    mbarrier,
    tma,
    warpgroup_mma,
    warpgroup_mma_wait,
)

from gemmtune.config import KernelConfigBackward_dX, KernelConfigForward
from gemmtune.kernels.common import e_pad, launch, locate_tile, num_sms, swizzle_tile
from gemmtune.kernels.hopper_ws import (
    GATHER_LOADER_REGISTERS,
    GATHER_LOADER_WARPS,
    LOADER_REGISTERS,
    LOADER_WARPS,
    SPLIT_LOADER_REGISTERS,
    accumulator_layout,
    expert_vectors,
    filled_slot,
    free_slot,
    gather_async,
    gathered_rows,
    invalidate_ring,
    m_blocks,
    publish_tile_id,
    read_tile_id,
    release_previous_slot,
    ring_barriers,
    ring_slots,
    row_store_layout,
    split_columns,
    tma_descriptor,
    tile_id_slots,
    tma_store_async,
    uniform_condition,
    warp_uniform,
    wgmma_columns,
)
from gemmtune.pruning import loader_gathers_rows, splits_tails


@gluon.constexpr_function
def stand_in_columns(rows, num_warps):
    """Columns of the narrowest accumulator of `rows` rows whose wgmma N is the PTX minimum of 8: the stand-in
    for an accumulator a tile does not use. (A stand-in 8 columns wide over 64 rows and 8 warps makes an N of
    4, on which Triton 3.6's compiler aborts, even though the stand-in is never multiplied.)"""
    return 8 * 8 // wgmma_columns(rows, 8, num_warps)  # wgmma_columns scales linearly with the columns


@gluon.constexpr_function
def tail_columns(tail_rows, block_n, num_warps):
    """Columns of the tail's accumulator (BLOCK_SIZE_N, columns): TAIL_ROWS, or without merged tails a
    stand-in."""
    return tail_rows if tail_rows > 0 else stand_in_columns(block_n, num_warps)


@gluon.jit
def tile_origin(tile_id, offs_e, m_sizes, row_end, tiles, tile_end, num_n_tiles, BLOCK_SIZE_M: gl.constexpr,
                BLOCK_SIZE_N: gl.constexpr, GROUP_SIZE_M: gl.constexpr, TAIL_ROWS: gl.constexpr,
                SPLIT_TAIL: gl.constexpr, COLUMN_TAIL: gl.constexpr = False):
    """(expert, its first sorted row, its row count, m0, n0, tail, tail_m0, share, shares) of flat tile
    `tile_id`, by the plain kernels' locate_tile and swizzle_tile (Triton jit functions without layouts, so
    Gluon can call them).
    tail: the tile also computes the expert's merged tail, its last rows tail_m0 … m_size (TAIL_ROWS at most):
    the expert's last block alone, or with SPLIT_TAIL each of the expert's `shares` blocks in this column over
    its share of the K steps (tail_steps), the sum added up across them (add_tail_share), or with COLUMN_TAIL
    each of the expert's last two blocks over half the columns (share 0 or 1 of shares 2; an expert of one block
    carries it whole, shares 1)."""
    e, row_start, m_size, local = locate_tile(tile_id, offs_e, m_sizes, row_end, tiles, tile_end)
    blocks = m_blocks(m_size, BLOCK_SIZE_M, TAIL_ROWS)
    pid_m, pid_n = swizzle_tile(local, blocks, num_n_tiles, GROUP_SIZE_M)
    m0 = pid_m * BLOCK_SIZE_M
    tail_m0 = blocks * BLOCK_SIZE_M
    has_tail = (TAIL_ROWS > 0) & (tail_m0 < m_size)
    if SPLIT_TAIL:
        tail, share, shares = has_tail, pid_m, blocks
    elif COLUMN_TAIL:
        shares = gl.minimum(blocks, 2)
        share = pid_m - (blocks - shares)
        tail = has_tail & (share >= 0)
    else:
        tail, share, shares = has_tail & (pid_m == blocks - 1), 0, 1
    return e, row_start, m_size, m0, pid_n * BLOCK_SIZE_N, tail, tail_m0, share, shares


@gluon.jit
def tail_steps(k_steps, share, shares):
    """The K steps [lo, hi) in which share `share` of `shares` computes the merged tail: k_steps split evenly."""
    return share * k_steps // shares, (share + 1) * k_steps // shares


@gluon.jit
def w_box_origin(e, k0, col0, N, K, DX: gl.constexpr):
    """(row, column) in W viewed as (E·N, K) of the W block for expert e, reduction step k0 and output columns
    from col0 (the kernel's N and K). Forward: W[e]'s rows are the output columns; dX: they are the reduction."""
    if DX:
        row = e * K + k0
        col = col0
    else:
        row = e * N + col0
        col = k0
    return row, col


@gluon.jit
def load_tile(tile_id, x_desc, w_desc, w_rest_desc, x_tail_desc, x_slots, w_slots, w_rest_slots, x_tail_slots,
              tile_ids, ready, empty, x_ptr, gather_indices_ptr, offs_e, m_sizes, row_end, tiles, tile_end,
              num_n_tiles, step, k_steps, N, K,
              BLOCK_SIZE_M: gl.constexpr, BLOCK_SIZE_N: gl.constexpr, BLOCK_SIZE_K: gl.constexpr,
              GROUP_SIZE_M: gl.constexpr, NUM_STAGES: gl.constexpr, TAIL_ROWS: gl.constexpr,
              GATHER_ROWS: gl.constexpr, TOPK: gl.constexpr, DYNAMIC_SCHEDULE: gl.constexpr, DX: gl.constexpr,
              SPLIT_TAIL: gl.constexpr, COLUMN_TAIL: gl.constexpr):
    """The loads of flat tile `tile_id`, one ring step per K step from `step` on; returns the next step.
    With DYNAMIC_SCHEDULE each step's slot also carries the tile id in `tile_ids`, written before the
    slot's `ready` arrival, so the MMA warps learn which tile they are computing from the ring itself. They
    read only the first step's entry; writing it at the first step alone makes the compiler peel that step,
    and the 128×256 loader gather with merged tails then spills (sass_report, sm_90: 9 LDL/STL)."""
    e, row_start, m_size, m0, n0, tail, tail_m0, share, shares = tile_origin(
        tile_id, offs_e, m_sizes, row_end, tiles, tile_end, num_n_tiles, BLOCK_SIZE_M, BLOCK_SIZE_N, GROUP_SIZE_M,
        TAIL_ROWS, SPLIT_TAIL, COLUMN_TAIL)
    # Uniform coordinates and branch: TMA takes them from uniform registers (warp_uniform). Not for the gather,
    # where that saved 4 of 150 instructions per K step and made the 128×256 merged-tail build spill.
    if not GATHER_ROWS:
        e, row_start, m0, n0 = warp_uniform(e), warp_uniform(row_start), warp_uniform(m0), warp_uniform(n0)
        tail, tail_m0 = uniform_condition(tail), warp_uniform(tail_m0)
    if SPLIT_TAIL:
        tail_lo, tail_hi = tail_steps(k_steps, share, shares)
        if not GATHER_ROWS:
            tail_lo, tail_hi = warp_uniform(tail_lo), warp_uniform(tail_hi)
    w_cols: gl.constexpr = split_columns(BLOCK_SIZE_N)[0]
    split: gl.constexpr = split_columns(BLOCK_SIZE_N)[1] > 0
    step_bytes: gl.constexpr = x_desc.block_type.nbytes + w_desc.block_type.nbytes + (
        w_rest_desc.block_type.nbytes if split else 0)
    tail_bytes: gl.constexpr = x_tail_desc.block_type.nbytes if TAIL_ROWS > 0 else 0
    if GATHER_ROWS:  # the tile's rows of X, looked up once for all its K steps
        x_rows, x_rows_ok = gathered_rows(gather_indices_ptr, row_start, m0, m_size, BLOCK_SIZE_M, BLOCK_SIZE_K,
                                          TOPK)
        if TAIL_ROWS > 0:
            tail_rows, tail_rows_ok = gathered_rows(gather_indices_ptr, row_start, tail_m0, m_size, TAIL_ROWS,
                                                    BLOCK_SIZE_K, TOPK)
    for k_step in range(k_steps):
        slot = free_slot(empty, step, NUM_STAGES)
        tail_now = tail
        if SPLIT_TAIL:  # this tile's share of the tail's K steps
            tail_now = tail & (k_step >= tail_lo) & (k_step < tail_hi)
        if DYNAMIC_SCHEDULE:
            publish_tile_id(tile_ids, slot, tile_id)
        k0 = k_step * BLOCK_SIZE_K
        if GATHER_ROWS:
            mbarrier.expect(ready.index(slot), step_bytes - x_desc.block_type.nbytes)
            gather_async(x_slots.index(slot), x_ptr, K, x_rows, x_rows_ok, k0)
            if TAIL_ROWS > 0:
                if tail_now:
                    gather_async(x_tail_slots.index(slot), x_ptr, K, tail_rows, tail_rows_ok, k0)
            async_copy.mbarrier_arrive(ready.index(slot), increment_count=False)
        else:
            if TAIL_ROWS > 0:  # exactly one of the two expects arrives on the slot's barrier
                mbarrier.expect(ready.index(slot), step_bytes + tail_bytes, pred=tail_now)
                mbarrier.expect(ready.index(slot), step_bytes, pred=not tail_now)
                tma.async_copy_global_to_shared(x_tail_desc, [row_start + tail_m0, k0], ready.index(slot),
                                                x_tail_slots.index(slot), pred=tail_now)
            else:
                mbarrier.expect(ready.index(slot), step_bytes)
            tma.async_copy_global_to_shared(x_desc, [row_start + m0, k0], ready.index(slot), x_slots.index(slot))
        # W last: issued before the gathered rows, it costs the loader a spill at 256×128 with tails.
        w_row, w_col = w_box_origin(e, k0, n0, N, K, DX)
        tma.async_copy_global_to_shared(w_desc, [w_row, w_col], ready.index(slot), w_slots.index(slot))
        if split:  # the output block's last columns, past the power of two
            rest_row, rest_col = w_box_origin(e, k0, n0 + w_cols, N, K, DX)
            tma.async_copy_global_to_shared(w_rest_desc, [rest_row, rest_col], ready.index(slot),
                                            w_rest_slots.index(slot))
        step += 1
    return step


@gluon.jit
def load_partition(x_desc, w_desc, w_rest_desc, x_tail_desc, x_slots, w_slots, w_rest_slots, x_tail_slots, tile_ids,
                   ready, empty, m_sizes_ptr, x_ptr, gather_indices_ptr, tile_counter_ptr, N, K,
                   NUM_EXPERTS: gl.constexpr, E_PAD: gl.constexpr,
                   NUM_SMS: gl.constexpr, BLOCK_SIZE_M: gl.constexpr, BLOCK_SIZE_N: gl.constexpr,
                   BLOCK_SIZE_K: gl.constexpr, GROUP_SIZE_M: gl.constexpr, NUM_STAGES: gl.constexpr,
                   TAIL_ROWS: gl.constexpr, GATHER_ROWS: gl.constexpr, TOPK: gl.constexpr,
                   DYNAMIC_SCHEDULE: gl.constexpr, DX: gl.constexpr, SPLIT_TAIL: gl.constexpr,
                   COLUMN_TAIL: gl.constexpr):
    """Fill the ring: for every K step of every tile of this program, wait for a free slot, then TMA X and W
    (and the tail's X rows on a tile that computes a tail).

    GATHER_ROWS (permute_x without pregather; dX: permute_y, dY in X's place): X stays in token order and every
    loader thread gathers its share of the tile's rows (gather_indices // TOPK, looked up once per tile) by
    16-byte cp.async, then arrives on the slot's `ready` barrier once its copies have landed; W still comes by
    TMA. Hopper's TMA has no row gather, and the copy into expert order that pregather makes first reads and
    writes X once more.

    Tiles: program p takes p, p + NUM_SMS, … or, with DYNAMIC_SCHEDULE, p first and then whichever tile the
    atomic counter hands it, claimed once this tile's loads are issued (the ring is full then, so the MMA
    warps do not wait for the claim's round trip). A slot whose tile id is past the last tile tells the MMA
    warps to stop."""
    num_n_tiles = gl.cdiv(N, BLOCK_SIZE_N)
    offs_e, m_sizes, row_end, tiles, tile_end, total_tiles = expert_vectors(
        m_sizes_ptr, NUM_EXPERTS, E_PAD, BLOCK_SIZE_M, num_n_tiles, TAIL_ROWS)
    k_steps = gl.cdiv(K, BLOCK_SIZE_K)
    step = 0
    tile_id = gl.program_id(0)
    while tile_id < total_tiles:
        step = load_tile(tile_id, x_desc, w_desc, w_rest_desc, x_tail_desc, x_slots, w_slots, w_rest_slots,
                         x_tail_slots, tile_ids, ready, empty, x_ptr, gather_indices_ptr, offs_e, m_sizes, row_end,
                         tiles, tile_end, num_n_tiles, step, k_steps, N, K, BLOCK_SIZE_M, BLOCK_SIZE_N,
                         BLOCK_SIZE_K, GROUP_SIZE_M, NUM_STAGES, TAIL_ROWS, GATHER_ROWS, TOPK, DYNAMIC_SCHEDULE, DX,
                         SPLIT_TAIL, COLUMN_TAIL)
        if DYNAMIC_SCHEDULE:
            tile_id = gl.num_programs(0) + gl.atomic_add(tile_counter_ptr, 1, sem="relaxed")
            tile_id = warp_uniform(tile_id)
        else:
            tile_id += NUM_SMS
    if DYNAMIC_SCHEDULE:  # the stop: a slot with no bytes whose tile id is past the last tile
        slot = free_slot(empty, step, NUM_STAGES)
        publish_tile_id(tile_ids, slot, total_tiles)
        mbarrier.expect(ready.index(slot), 0)
        if GATHER_ROWS:
            async_copy.mbarrier_arrive(ready.index(slot), increment_count=False)


@gluon.jit
def k_loop(x_slots, w_slots, w_rest_slots, x_tail_slots, ready, empty, acc, acc_rest, acc_tail, step, k_steps,
           NUM_STAGES: gl.constexpr, WITH_TAIL: gl.constexpr, SPLIT: gl.constexpr, GATHER_ROWS: gl.constexpr,
           DX: gl.constexpr, MAY_BE_EMPTY: gl.constexpr = False, TAIL_PART: gl.constexpr = 0):
    """One tile's K loop over the ring from `step` on: acc += X·Wᵀ and, WITH_TAIL, acc_tail += W·X_tailᵀ (the
    tail's rows on the wgmma's N side, so a few rows cost a few columns of MMA, not a 64-row slab). Async
    wgmma, this step's group(s) in flight while the next slot is awaited; a slot goes back to the loader
    once the wgmma that read it has retired. The tail's group goes first: on the H200 that took a quarter to
    a half off what a merged tail costs (docs/perf-notes.md, entry 52; not profiled: issued last, its short
    wgmmas, each chained on the one before, trail the tile's long group into the wait for the next slot).
    SPLIT: the output block is two accumulators, acc's power of two of columns and acc_rest's rest, each from
    its own W slot. MAY_BE_EMPTY: k_steps may be 0 (one part of a tile's loop, split_tail), and then no slot is
    released. TAIL_PART 1 or 2: the tail over the first or second half of W's block only (COLUMN_TAIL). Each call
    ends with its wgmmas retired: ptxas serializes every wgmma of a loop whose last group stays in flight into the
    next loop (sass_report, sm_90: `WARPGROUP.DEPBAR.LE gsb0, 0x0` after each).
    Returns (acc, acc_rest, acc_tail, step)."""
    for k_step in range(k_steps):
        slot = filled_slot(ready, step, NUM_STAGES)
        if GATHER_ROWS:
            fence_async_shared()  # the loader's cp.async wrote X through the generic proxy; wgmma reads async
        x = x_slots.index(slot)
        w = w_slots.index(slot)
        if DX:  # a block of W[e]'s (reduction, output) rows and columns, seen as the forward's (output, reduction)
            w = w.permute((1, 0))
        if SPLIT:
            w_rest = w_rest_slots.index(slot)
            if DX:
                w_rest = w_rest.permute((1, 0))
            acc = warpgroup_mma(x, w.permute((1, 0)), acc, is_async=True)
            acc_rest = warpgroup_mma(x, w_rest.permute((1, 0)), acc_rest, is_async=True)
            acc, acc_rest, x, w, w_rest = warpgroup_mma_wait(2, deps=[acc, acc_rest, x, w, w_rest])
        elif WITH_TAIL:
            x_tail = x_tail_slots.index(slot)
            w_tail = w
            if TAIL_PART > 0:  # W's block in the slot is (output columns, reduction); in dX, transposed
                half: gl.constexpr = w_slots.shape[2 if DX else 1] // 2
                w_tail = w_slots.index(slot).slice((TAIL_PART - 1) * half, half, dim=1 if DX else 0)
                if DX:
                    w_tail = w_tail.permute((1, 0))
            acc_tail = warpgroup_mma(w_tail, x_tail.permute((1, 0)), acc_tail, is_async=True)
            acc = warpgroup_mma(x, w.permute((1, 0)), acc, is_async=True)
            acc, acc_tail, x, w, x_tail = warpgroup_mma_wait(2, deps=[acc, acc_tail, x, w, x_tail])
        else:
            acc = warpgroup_mma(x, w.permute((1, 0)), acc, is_async=True)
            acc, x, w = warpgroup_mma_wait(1, deps=[acc, x, w])
        release_previous_slot(empty, step, NUM_STAGES, k_step > 0)
        step += 1
    acc, acc_rest, acc_tail = warpgroup_mma_wait(0, deps=[acc, acc_rest, acc_tail])
    release_previous_slot(empty, step, NUM_STAGES, (k_steps > 0) if MAY_BE_EMPTY else True)
    return acc, acc_rest, acc_tail, step


@gluon.jit
def row_targets(layout: gl.constexpr, block_rows: gl.constexpr, m0, m_size, row_start, gather_indices_ptr,
                SCATTER_ROWS: gl.constexpr):
    """(mask of the rows m0 … m0+block_rows that belong to the expert, their rows of Y), in `layout`'s rows:
    the expert's sorted rows, or with SCATTER_ROWS (fwd: permute_y; dX: permute_x) their token·topk rows
    from gather_indices."""
    offs_m = m0 + gl.arange(0, block_rows, layout=gl.SliceLayout(1, layout))
    row_mask = offs_m < m_size
    rows = row_start + gl.where(row_mask, offs_m, 0)
    if SCATTER_ROWS:
        return row_mask, gl.load(gather_indices_ptr + rows)
    return row_mask, rows


@gluon.jit
def store_rows(acc, y_ptr, m0, m_size, row_start, n0, N, gather_indices_ptr, topk_weights_ptr,
               SCATTER_ROWS: gl.constexpr, FUSE_MUL_POST: gl.constexpr, COALESCE: gl.constexpr):
    """Store acc (rows m0 … of the expert, columns n0 …; fp32 in any layout) from registers: rows past the
    expert's end and columns past N dropped, scattered through gather_indices with SCATTER_ROWS, scaled by
    topk_weights with fuse_mul_post. COALESCE (acc in a wgmma accumulator layout): converted to
    row_store_layout after the cast, so each thread stores 16 bytes at a time."""
    acc_layout: gl.constexpr = acc.type.layout
    if FUSE_MUL_POST:
        _, dst = row_targets(acc_layout, acc.shape[0], m0, m_size, row_start, gather_indices_ptr, SCATTER_ROWS)
        acc = acc * gl.expand_dims(gl.load(topk_weights_ptr + dst).to(gl.float32), 1)
    y = acc.to(y_ptr.dtype.element_ty)
    if COALESCE:
        y = gl.convert_layout(y, row_store_layout(acc_layout, y.shape[1]))
    layout: gl.constexpr = y.type.layout
    row_mask, dst = row_targets(layout, y.shape[0], m0, m_size, row_start, gather_indices_ptr, SCATTER_ROWS)
    offs_n = n0 + gl.arange(0, y.shape[1], layout=gl.SliceLayout(0, layout))
    ptrs = y_ptr + gl.expand_dims(dst.to(gl.int64) * N, 1) + gl.expand_dims(offs_n, 0)
    mask = gl.expand_dims(row_mask, 1) & gl.expand_dims(offs_n < N, 0)
    gl.store(ptrs, y, mask=mask)


@gluon.jit
def add_tail_share(acc_tail, tail_sums_ptr, tail_counts_ptr, e, n0, num_n_tiles, shares, y_ptr, tail_m0, m_size,
                   row_start, N, gather_indices_ptr, topk_weights_ptr, BLOCK_SIZE_N: gl.constexpr,
                   SCATTER_ROWS: gl.constexpr, FUSE_MUL_POST: gl.constexpr):
    """SPLIT_TAIL: add this tile's share of expert e's merged tail (acc_tail, (columns, TAIL_ROWS) fp32: the
    tail's Yᵀ over this tile's K steps) into the expert's fp32 sums, tail_sums (E, TAIL_ROWS, N) zeroed by the
    launch; the last of the column's `shares` tiles to arrive, counted in tail_counts (E, cdiv(N, BLOCK_SIZE_N))
    int32, stores the whole sum as store_rows does. The count's atomic is acq_rel at GPU scope and follows a
    barrier over the MMA warps, so every share's adds are visible to the last (PTX ISA, memory consistency
    model: release and acquire patterns). fp32 adds in arrival order: the tail's rows are not bitwise
    reproducible from run to run."""
    cols: gl.constexpr = acc_tail.shape[0]
    tail_rows: gl.constexpr = acc_tail.shape[1]
    layout: gl.constexpr = acc_tail.type.layout
    sums_ptr = tail_sums_ptr + e.to(gl.int64) * tail_rows * N
    offs_n = n0 + gl.arange(0, cols, layout=gl.SliceLayout(1, layout))
    offs_row = gl.arange(0, tail_rows, layout=gl.SliceLayout(0, layout))
    ptrs = sums_ptr + gl.expand_dims(offs_row, 0) * N + gl.expand_dims(offs_n, 1)
    mask = gl.expand_dims(offs_n < N, 1) & gl.expand_dims(offs_row < tail_rows, 0)  # the columns', as a tile
    gl.atomic_add(ptrs, acc_tail, mask=mask, sem="relaxed")
    gl.thread_barrier()  # every MMA thread's adds are issued before the count's release
    arrived = gl.atomic_add(tail_counts_ptr + e * num_n_tiles + n0 // BLOCK_SIZE_N, 1, sem="acq_rel")
    if uniform_condition(arrived == shares - 1):  # the last share: the sum is complete
        sums_layout: gl.constexpr = gl.BlockedLayout([1, 4], [1, 32], [gl.num_warps(), 1], [1, 0])
        rows = gl.arange(0, tail_rows, layout=gl.SliceLayout(1, sums_layout))
        cols_n = n0 + gl.arange(0, cols, layout=gl.SliceLayout(0, sums_layout))
        sums_mask = gl.expand_dims(rows < tail_rows, 1) & gl.expand_dims(cols_n < N, 0)
        sums = gl.load(sums_ptr + gl.expand_dims(rows, 1) * N + gl.expand_dims(cols_n, 0), mask=sums_mask,
                       other=0.0, cache_modifier=".cg")  # from L2, where the adds went
        store_rows(sums, y_ptr, tail_m0, m_size, row_start, n0, N, gather_indices_ptr, topk_weights_ptr,
                   SCATTER_ROWS, FUSE_MUL_POST, False)


@gluon.jit
def mma_tile(tile_id, x_slots, w_slots, w_rest_slots, x_tail_slots, ready, empty, y_desc, y_slot, y_ptr,
             gather_indices_ptr, topk_weights_ptr, offs_e, m_sizes, row_end, tiles, tile_end, num_n_tiles, step,
             k_steps, N, BLOCK_SIZE_M: gl.constexpr, BLOCK_SIZE_N: gl.constexpr, GROUP_SIZE_M: gl.constexpr,
             NUM_STAGES: gl.constexpr, SCATTER_ROWS: gl.constexpr, FUSE_MUL_POST: gl.constexpr,
             USE_TMA_STORE: gl.constexpr, TAIL_ROWS: gl.constexpr, GATHER_ROWS: gl.constexpr, DX: gl.constexpr,
             SPLIT_TAIL: gl.constexpr, tail_sums_ptr, tail_counts_ptr, COLUMN_TAIL: gl.constexpr):
    """Compute flat tile `tile_id` from the ring (k_loop) from `step` on, then store it and its tail (with
    SPLIT_TAIL: add its share of the tail, add_tail_share); returns the next step."""
    cols: gl.constexpr = split_columns(BLOCK_SIZE_N)[0]
    rest_cols: gl.constexpr = split_columns(BLOCK_SIZE_N)[1]
    SPLIT: gl.constexpr = rest_cols > 0
    acc_layout: gl.constexpr = accumulator_layout(BLOCK_SIZE_M, cols, gl.num_warps())
    rest_width: gl.constexpr = rest_cols if SPLIT else stand_in_columns(BLOCK_SIZE_M, gl.num_warps())
    rest_layout: gl.constexpr = accumulator_layout(BLOCK_SIZE_M, rest_width, gl.num_warps())
    # The tail's accumulator has the tile's columns as rows (cols: no merged tail on a split block).
    tail_cols: gl.constexpr = tail_columns(TAIL_ROWS, cols, gl.num_warps())
    tail_layout: gl.constexpr = accumulator_layout(cols, tail_cols, gl.num_warps())
    e, row_start, m_size, m0, n0, tail, tail_m0, share, shares = tile_origin(
        tile_id, offs_e, m_sizes, row_end, tiles, tile_end, num_n_tiles, BLOCK_SIZE_M, BLOCK_SIZE_N, GROUP_SIZE_M,
        TAIL_ROWS, SPLIT_TAIL, COLUMN_TAIL)
    tail = uniform_condition(tail)  # the branches steer k_loop: uniform, for its wgmma descriptors (warp_uniform)
    acc = gl.zeros((BLOCK_SIZE_M, cols), gl.float32, acc_layout)
    acc_rest = gl.zeros((BLOCK_SIZE_M, rest_width), gl.float32, rest_layout)
    acc_tail = gl.zeros((cols, tail_cols), gl.float32, tail_layout)
    if TAIL_ROWS > 0:  # constexpr: without it the tail's loop is not even compiled
        if tail:
            if SPLIT_TAIL:  # the tail in this tile's share of the K steps only, the plain loop around it
                tail_lo, tail_hi = tail_steps(k_steps, share, shares)
                tail_lo, tail_hi = warp_uniform(tail_lo), warp_uniform(tail_hi)
                acc, acc_rest, acc_tail, step = k_loop(x_slots, w_slots, w_rest_slots, x_tail_slots, ready, empty,
                                                       acc, acc_rest, acc_tail, step, tail_lo, NUM_STAGES, False,
                                                       False, GATHER_ROWS, DX, True)
                acc, acc_rest, acc_tail, step = k_loop(x_slots, w_slots, w_rest_slots, x_tail_slots, ready, empty,
                                                       acc, acc_rest, acc_tail, step, tail_hi - tail_lo, NUM_STAGES,
                                                       True, False, GATHER_ROWS, DX, True)
                acc, acc_rest, acc_tail, step = k_loop(x_slots, w_slots, w_rest_slots, x_tail_slots, ready, empty,
                                                       acc, acc_rest, acc_tail, step, k_steps - tail_hi, NUM_STAGES,
                                                       False, False, GATHER_ROWS, DX, True)
                add_tail_share(acc_tail, tail_sums_ptr, tail_counts_ptr, e, n0, num_n_tiles, shares, y_ptr, tail_m0,
                               m_size, row_start, N, gather_indices_ptr, topk_weights_ptr, BLOCK_SIZE_N,
                               SCATTER_ROWS, FUSE_MUL_POST)
            elif COLUMN_TAIL and uniform_condition(shares == 2):  # this block's half of the tail's columns
                half: gl.constexpr = cols // 2
                half_layout: gl.constexpr = accumulator_layout(half, tail_cols, gl.num_warps())
                acc_half = gl.zeros((half, tail_cols), gl.float32, half_layout)
                if uniform_condition(share == 0):
                    acc, acc_rest, acc_half, step = k_loop(x_slots, w_slots, w_rest_slots, x_tail_slots, ready,
                                                           empty, acc, acc_rest, acc_half, step, k_steps,
                                                           NUM_STAGES, True, False, GATHER_ROWS, DX, False, 1)
                else:
                    acc, acc_rest, acc_half, step = k_loop(x_slots, w_slots, w_rest_slots, x_tail_slots, ready,
                                                           empty, acc, acc_rest, acc_half, step, k_steps,
                                                           NUM_STAGES, True, False, GATHER_ROWS, DX, False, 2)
                store_rows(gl.permute(acc_half, (1, 0)), y_ptr, tail_m0, m_size, row_start, n0 + share * half, N,
                           gather_indices_ptr, topk_weights_ptr, SCATTER_ROWS, FUSE_MUL_POST, False)
            else:
                acc, acc_rest, acc_tail, step = k_loop(x_slots, w_slots, w_rest_slots, x_tail_slots, ready, empty,
                                                       acc, acc_rest, acc_tail, step, k_steps, NUM_STAGES, True,
                                                       False, GATHER_ROWS, DX)
                # acc_tail holds the tail's Yᵀ: transposed, it stores like any row block.
                store_rows(gl.permute(acc_tail, (1, 0)), y_ptr, tail_m0, m_size, row_start, n0, N,
                           gather_indices_ptr, topk_weights_ptr, SCATTER_ROWS, FUSE_MUL_POST, False)
        else:
            acc, acc_rest, acc_tail, step = k_loop(x_slots, w_slots, w_rest_slots, x_tail_slots, ready, empty, acc,
                                                   acc_rest, acc_tail, step, k_steps, NUM_STAGES, False, False,
                                                   GATHER_ROWS, DX)
    else:
        acc, acc_rest, acc_tail, step = k_loop(x_slots, w_slots, w_rest_slots, x_tail_slots, ready, empty, acc,
                                               acc_rest, acc_tail, step, k_steps, NUM_STAGES, False, SPLIT,
                                               GATHER_ROWS, DX)
    if USE_TMA_STORE and uniform_condition(m0 + BLOCK_SIZE_M <= m_size):
        # Asynchronous: the next tile's K loop runs while TMA writes this one. Only a tile whose rows all
        # belong to the expert goes this way; TMA clips the columns past N itself. (Pruning keeps the TMA
        # store away from a scattered output, so no scatter and no fuse_mul_post here.)
        tma_store_async(y_desc, row_start + m0, n0, y_slot, acc.to(y_ptr.dtype.element_ty))
    else:
        store_rows(acc, y_ptr, m0, m_size, row_start, n0, N, gather_indices_ptr, topk_weights_ptr, SCATTER_ROWS,
                   FUSE_MUL_POST, True)
        if SPLIT:
            store_rows(acc_rest, y_ptr, m0, m_size, row_start, n0 + cols, N, gather_indices_ptr, topk_weights_ptr,
                       SCATTER_ROWS, FUSE_MUL_POST, True)
    return step


@gluon.jit
def mma_partition(x_slots, w_slots, w_rest_slots, x_tail_slots, tile_ids, ready, empty, y_desc, y_slot, y_ptr,
                  m_sizes_ptr, gather_indices_ptr, topk_weights_ptr, N, K, NUM_EXPERTS: gl.constexpr,
                  E_PAD: gl.constexpr, NUM_SMS: gl.constexpr, BLOCK_SIZE_M: gl.constexpr, BLOCK_SIZE_N: gl.constexpr,
                  BLOCK_SIZE_K: gl.constexpr, GROUP_SIZE_M: gl.constexpr, NUM_STAGES: gl.constexpr,
                  SCATTER_ROWS: gl.constexpr, FUSE_MUL_POST: gl.constexpr, USE_TMA_STORE: gl.constexpr,
                  TAIL_ROWS: gl.constexpr, GATHER_ROWS: gl.constexpr, DYNAMIC_SCHEDULE: gl.constexpr,
                  DX: gl.constexpr, SPLIT_TAIL: gl.constexpr, tail_sums_ptr, tail_counts_ptr,
                  COLUMN_TAIL: gl.constexpr):
    """Consume the ring tile by tile (mma_tile): the tiles the loader's schedule gives this program, read
    with DYNAMIC_SCHEDULE from the ring slot of each tile's first step."""
    num_n_tiles = gl.cdiv(N, BLOCK_SIZE_N)
    offs_e, m_sizes, row_end, tiles, tile_end, total_tiles = expert_vectors(
        m_sizes_ptr, NUM_EXPERTS, E_PAD, BLOCK_SIZE_M, num_n_tiles, TAIL_ROWS)
    k_steps = gl.cdiv(K, BLOCK_SIZE_K)
    step = 0
    tile_id = read_tile_id(tile_ids, ready, step, NUM_STAGES) if DYNAMIC_SCHEDULE else gl.program_id(0)
    while tile_id < total_tiles:
        step = mma_tile(tile_id, x_slots, w_slots, w_rest_slots, x_tail_slots, ready, empty, y_desc, y_slot, y_ptr,
                        gather_indices_ptr, topk_weights_ptr, offs_e, m_sizes, row_end, tiles, tile_end, num_n_tiles,
                        step, k_steps, N, BLOCK_SIZE_M, BLOCK_SIZE_N, GROUP_SIZE_M, NUM_STAGES, SCATTER_ROWS,
                        FUSE_MUL_POST, USE_TMA_STORE, TAIL_ROWS, GATHER_ROWS, DX, SPLIT_TAIL, tail_sums_ptr,
                        tail_counts_ptr, COLUMN_TAIL)
        tile_id = read_tile_id(tile_ids, ready, step, NUM_STAGES) if DYNAMIC_SCHEDULE else tile_id + NUM_SMS
    if USE_TMA_STORE:
        tma.store_wait(0)


@gluon.jit
def grouped_gemm_ws_kernel(
    x_ptr,
    x_desc,
    w_desc,
    w_rest_desc,
    x_tail_desc,
    y_desc,
    y_ptr,
    m_sizes_ptr,
    gather_indices_ptr,
    topk_weights_ptr,
    tile_counter_ptr,
    tail_sums_ptr,
    tail_counts_ptr,
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
    SCATTER_ROWS: gl.constexpr,
    FUSE_MUL_POST: gl.constexpr,
    USE_TMA_STORE: gl.constexpr,
    TAIL_ROWS: gl.constexpr,
    GATHER_ROWS: gl.constexpr,
    TOPK: gl.constexpr,
    DYNAMIC_SCHEDULE: gl.constexpr,
    DX: gl.constexpr,
    SPLIT_TAIL: gl.constexpr,
    COLUMN_TAIL: gl.constexpr = False,
):
    """Y (rows, N) = X (rows, K) · W[e]ᵀ per expert, or with DX dX = dY · W[e] with N and K as the module
    docstring says; launched by launch_ws."""
    x_slots = ring_slots(x_desc, NUM_STAGES)
    w_slots = ring_slots(w_desc, NUM_STAGES)
    split: gl.constexpr = split_columns(BLOCK_SIZE_N)[1] > 0
    if split:
        w_rest_slots = ring_slots(w_rest_desc, NUM_STAGES)
    else:
        w_rest_desc = w_desc
        w_rest_slots = w_slots
    # Partitions take no None: the constexpr-false branches never touch these stand-ins.
    if TAIL_ROWS > 0:
        x_tail_slots = ring_slots(x_tail_desc, NUM_STAGES)
    else:
        x_tail_desc = x_desc
        x_tail_slots = x_slots
    if USE_TMA_STORE:
        y_slot = gl.allocate_shared_memory(y_desc.dtype, y_desc.block_type.shape, y_desc.layout)
    else:
        y_desc = x_desc
        y_slot = x_slots
    if DYNAMIC_SCHEDULE:
        tile_ids = tile_id_slots(NUM_STAGES)
    else:
        tile_ids = x_slots
    if GATHER_ROWS:  # a slot is ready after the W bytes and one cp.async arrival per loader thread
        ready, empty = ring_barriers(NUM_STAGES, 1 + 32 * GATHER_LOADER_WARPS)
    else:
        ready, empty = ring_barriers(NUM_STAGES)

    gl.warp_specialize(
        [
            (mma_partition, (x_slots, w_slots, w_rest_slots, x_tail_slots, tile_ids, ready, empty, y_desc, y_slot,
                             y_ptr, m_sizes_ptr, gather_indices_ptr, topk_weights_ptr, N, K, NUM_EXPERTS, E_PAD,
                             NUM_SMS, BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, GROUP_SIZE_M, NUM_STAGES,
                             SCATTER_ROWS, FUSE_MUL_POST, USE_TMA_STORE, TAIL_ROWS, GATHER_ROWS, DYNAMIC_SCHEDULE,
                             DX, SPLIT_TAIL, tail_sums_ptr, tail_counts_ptr, COLUMN_TAIL)),
            (load_partition, (x_desc, w_desc, w_rest_desc, x_tail_desc, x_slots, w_slots, w_rest_slots, x_tail_slots,
                              tile_ids, ready, empty, m_sizes_ptr, x_ptr, gather_indices_ptr, tile_counter_ptr, N,
                              K, NUM_EXPERTS, E_PAD, NUM_SMS, BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, GROUP_SIZE_M,
                              NUM_STAGES, TAIL_ROWS, GATHER_ROWS, TOPK, DYNAMIC_SCHEDULE, DX, SPLIT_TAIL,
                              COLUMN_TAIL)),
        ],
        [GATHER_LOADER_WARPS if GATHER_ROWS else LOADER_WARPS],
        [GATHER_LOADER_REGISTERS if GATHER_ROWS else
         SPLIT_LOADER_REGISTERS if split else LOADER_REGISTERS],
    )

    invalidate_ring(ready, empty, NUM_STAGES)


def launch_ws(a, w, out, m_sizes, gather_indices, topk_weights,
              config: KernelConfigForward | KernelConfigBackward_dX, topk: int, warmup: bool):
    """Launch the warp-specialized kernel (or only compile it with warmup=True) for a forward or dX config.

    fwd, Y = X · W[e]ᵀ: a = x, (rows, K) in expert order (pregathered by the caller), or under permute_x without
    pregather (rows / topk, K) in token order, its rows then gathered by the loader; out = y (rows, N),
    scattered to token·topk order under permute_y.
    dX, dX = dY · W[e] (W[e]'s roles swapped: its N the reduction, its K the output columns): a = dy, (rows, N)
    in expert order (pregathered), or under permute_y without pregather in token·topk order, gathered by the
    loader; out = dx (rows, K), scattered to token·topk order under permute_x; topk_weights unused.
    w: (E, N, K), read in (BLOCK_SIZE_N, BLOCK_SIZE_K) TMA blocks of W viewed as (E·N, K) in both modes. a and w
    16-byte aligned (checked by the caller). split_tail splits the merged tails only on a long enough reduction
    (gemmtune.pruning.splits_tails; on a shorter one the carried tail's kernel runs), and each such launch also
    allocates and zeroes E·TAIL_ROWS·out_cols fp32 tail sums and a count per (expert, output block). Returns
    Triton's compiled kernel.
    """
    E, N, K = w.shape
    dx = config.mode == "dx"
    # The kernel's N and K: the GEMM's output columns and reduction, and BLOCK_SIZE_N / _K its blocks of them.
    if dx:
        out_cols, reduction, block_out, block_reduction = K, N, config.BLOCK_SIZE_K, config.BLOCK_SIZE_N
    else:
        out_cols, reduction, block_out, block_reduction = N, K, config.BLOCK_SIZE_N, config.BLOCK_SIZE_K
    rows = out.shape[0]
    BM = config.BLOCK_SIZE_M
    gather_rows = loader_gathers_rows(config)
    # Under gather_rows the A descriptors only give the ring slots their block shape and shared layout.
    a_desc = tma_descriptor(a, a.shape[0], reduction, [BM, block_reduction])
    a_tail_desc = None
    if config.TAIL_ROWS:
        a_tail_desc = tma_descriptor(a, a.shape[0], reduction, [config.TAIL_ROWS, block_reduction])
    # A block past row N of expert e reads expert e+1's rows (TMA's zeros past the last expert). In the
    # forward they land in output columns the store drops; in dX they meet A's columns past N, which TMA
    # and the gather fill with zeros, so they add nothing as long as W is finite.
    def w_block(columns: int) -> list[int]:  # W's box for `columns` output columns: (reduction, output) in dX
        return [block_reduction, columns] if dx else [columns, block_reduction]

    cols, rest_cols = split_columns(block_out)
    w_desc = tma_descriptor(w, E * N, K, w_block(cols))
    w_rest_desc = None
    if rest_cols:  # the output block's last rest_cols columns: W's next rows (fwd) or columns (dX)
        w_rest_desc = tma_descriptor(w, E * N, K, w_block(rest_cols))
    out_desc = tma_descriptor(out, rows, out_cols, [BM, block_out]) if config.use_tma_store else None
    tiles = (triton.cdiv(rows, BM) + E) * triton.cdiv(out_cols, block_out)  # an upper bound
    # dynamic_schedule's tile counter, zeroed for each launch (one small fill, part of the timed call); without
    # it m_sizes stands in, never touched.
    tile_counter = m_sizes.new_zeros(1) if config.dynamic_schedule else m_sizes
    # split_tail's fp32 tail sums (E, TAIL_ROWS, out_cols) and per-column arrival counts where it splits, zeroed for
    # each launch in one fill (part of the timed call; zero bits read as int32 0 too); else stand-ins, never touched.
    tail_sums = tail_counts = out
    split_tail = splits_tails(config, N, K)
    if split_tail:
        sums = E * config.TAIL_ROWS * out_cols
        zeroed = torch.zeros(sums + E * triton.cdiv(out_cols, block_out), dtype=torch.float32, device=out.device)
        tail_sums, tail_counts = zeroed[:sums], zeroed[sums:].view(torch.int32)
    return launch(
        grouped_gemm_ws_kernel,
        tiles,
        warmup,
        a,
        a_desc,
        w_desc,
        w_rest_desc,
        a_tail_desc,
        out_desc,
        out,
        m_sizes,
        gather_indices,
        topk_weights if topk_weights is not None else out,
        tile_counter,
        tail_sums,
        tail_counts,
        out_cols,
        reduction,
        NUM_EXPERTS=E,
        E_PAD=e_pad(E),
        NUM_SMS=num_sms(),
        BLOCK_SIZE_M=BM,
        BLOCK_SIZE_N=block_out,
        BLOCK_SIZE_K=block_reduction,
        GROUP_SIZE_M=config.GROUP_SIZE_M,
        NUM_STAGES=config.num_stages,
        SCATTER_ROWS=config.permute_x if dx else config.permute_y,
        FUSE_MUL_POST=config.fuse_mul_post,
        USE_TMA_STORE=config.use_tma_store,
        TAIL_ROWS=config.TAIL_ROWS,
        GATHER_ROWS=gather_rows,
        TOPK=1 if dx else topk,  # dY's gather indices are its rows; X's are rows // topk
        DYNAMIC_SCHEDULE=config.dynamic_schedule,
        DX=dx,
        SPLIT_TAIL=split_tail,
        COLUMN_TAIL=config.column_tail,
        num_warps=config.num_warps,
    )
