"""What the warp-specialized Gluon kernels for Hopper share (gemmtune.kernels.fwd_ws and dw_ws).

Both run a one-warp TMA loader partition beside num_warps MMA warps, hand ring slots between them with the
same `ready` / `empty` mbarrier phases, store tiles by asynchronous TMA stores, and map flat tile ids to
experts with per-expert vectors built once per partition. Gluon kernels are compiled, never interpreted.
"""

from __future__ import annotations

import torch
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.ampere import async_copy
from triton.experimental.gluon.language.nvidia.hopper import fence_async_shared, mbarrier, tma
from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

from gemmtune import pruning

LOADER_WARPS = gl.constexpr(1)
LOADER_REGISTERS = gl.constexpr(64)  # setmaxnreg of the loader warp; the MMA warps keep the rest
# Beside an output block split in two accumulators (192 fp32 registers per MMA thread at 256×192 or 128×384),
# 40 leave the MMA warps 232 registers, where 64 left 216 and the second accumulator spilled in the K loop
# (sass_report, sm_90, 256×192 forward tiles, 3 stages).
SPLIT_LOADER_REGISTERS = gl.constexpr(40)
# A loader that gathers rows with cp.async: a warpgroup, so each thread keeps a few rows' addresses.
GATHER_LOADER_WARPS = gl.constexpr(4)
# 64 spill at 256-row tiles with merged tails; 72 still leaves the MMA warps the 216 registers per thread
# (setmaxnreg in the PTX) that they get beside a one-warp loader.
GATHER_LOADER_REGISTERS = gl.constexpr(72)


@gluon.jit
def add(a, b):
    return a + b


@gluon.constexpr_function
def lane_layout(num_warps):
    """A 1-D register layout over all of a partition's lanes: its per-expert vectors, and the tile id it
    hands through shared memory."""
    return gl.BlockedLayout([1], [32], [num_warps], [0])


@gluon.jit
def warp_uniform(value):
    """`value`, an int32 scalar that every lane of the warp holds alike, in a register that ptxas knows to be
    uniform: passed through `redux.sync` (PTX ISA, sm_80+), whose result SASS keeps in a uniform register. Its
    full member mask needs all 32 lanes to reach the call together (no lane-divergent branch around it).

    ptxas keeps a loop's wgmma descriptors on the uniform datapath only when the loop runs under control flow
    it can prove uniform. A scalar reduced from a per-expert vector (shuffles) it cannot, so a loop or branch
    steered by one makes it build every descriptor in vector registers and move it over by R2UR: 85
    instructions per 128×256 forward K step instead of 59 (sass_report, sm_90; the H200 figures are in
    docs/perf-notes.md, entry 57). A TMA copy likewise takes its coordinates and addresses from uniform
    registers: a loader whose loop and coordinates come from such scalars moves them over at every copy, 91
    instructions per 128×256 forward K step (4 stages, merged tails) instead of 58 (entry 58)."""
    return gl.inline_asm_elementwise("redux.sync.min.s32 $0, $1, 0xffffffff;", "=r,r", [value], dtype=gl.int32,
                                     is_pure=True, pack=1)


@gluon.jit
def uniform_condition(condition):
    """A boolean scalar that every lane holds alike, made uniform to ptxas as warp_uniform does."""
    return warp_uniform(condition.to(gl.int32)) != 0


@gluon.jit
def m_blocks(m_sizes, BLOCK_SIZE_M: gl.constexpr, TAIL_ROWS: gl.constexpr):
    """M blocks per expert (a scalar or a per-expert vector): cdiv(m_sizes, BLOCK_SIZE_M), less the last
    partial block where TAIL_ROWS > 0, it holds at most TAIL_ROWS rows and a full block precedes it (that
    block's tile computes the tail too: gemmtune.kernels.fwd_ws)."""
    blocks = gl.cdiv(m_sizes, BLOCK_SIZE_M)
    if TAIL_ROWS > 0:
        tail = m_sizes % BLOCK_SIZE_M
        blocks -= ((tail > 0) & (tail <= TAIL_ROWS) & (m_sizes > BLOCK_SIZE_M)).to(gl.int32)
    return blocks


@gluon.jit
def expert_vectors(m_sizes_ptr, NUM_EXPERTS: gl.constexpr, E_PAD: gl.constexpr, BLOCK_SIZE_M: gl.constexpr,
                   tiles_per_m_block, TAIL_ROWS: gl.constexpr = 0):
    """gemmtune.kernels.common.expert_tiles in Gluon: tl.arange there has no layout, here the per-expert
    lanes are spread over the calling partition's warps (one warp for the loader, num_warps for the MMAs).
    With TAIL_ROWS, an expert's M blocks are counted by m_blocks. The tile total comes back warp-uniform: it
    bounds both partitions' tile loops (warp_uniform)."""
    offs_e = gl.arange(0, E_PAD, layout=lane_layout(gl.num_warps()))
    m_sizes = gl.load(m_sizes_ptr + offs_e, mask=offs_e < NUM_EXPERTS, other=0)
    tiles = m_blocks(m_sizes, BLOCK_SIZE_M, TAIL_ROWS) * tiles_per_m_block
    row_end = gl.associative_scan(m_sizes, 0, add)  # Gluon has no cumsum
    return offs_e, m_sizes, row_end, tiles, gl.associative_scan(tiles, 0, add), warp_uniform(gl.sum(tiles, 0))


@gluon.jit
def ring_slots(desc, NUM_STAGES: gl.constexpr):
    """NUM_STAGES shared-memory slots for the blocks of TMA descriptor `desc`, in its layout."""
    return gl.allocate_shared_memory(desc.dtype, [NUM_STAGES] + desc.block_type.shape, desc.layout)


@gluon.jit
def ring_barriers(NUM_STAGES: gl.constexpr, READY_ARRIVALS: gl.constexpr = 1):
    """The ring's mbarriers, initialized, one of each per slot: `ready` (the slot's TMA bytes have landed,
    after READY_ARRIVALS arrivals: the loader's expect, and one per thread of a loader that also copies by
    cp.async) and `empty` (the wgmma that read it has retired; the loader may refill it)."""
    ready = gl.allocate_shared_memory(gl.int64, [NUM_STAGES, 1], mbarrier.MBarrierLayout())
    empty = gl.allocate_shared_memory(gl.int64, [NUM_STAGES, 1], mbarrier.MBarrierLayout())
    for slot in gl.static_range(NUM_STAGES):
        mbarrier.init(ready.index(slot), count=READY_ARRIVALS)
        mbarrier.init(empty.index(slot), count=1)
    return ready, empty


@gluon.jit
def free_slot(empty, step, NUM_STAGES: gl.constexpr):
    """The loader's slot for ring step `step`, once the MMA warps have released it (its `empty` barrier)."""
    slot = step % NUM_STAGES
    # A fresh barrier's preceding phase counts as complete: the first round does not wait.
    mbarrier.wait(empty.index(slot), ((step // NUM_STAGES) & 1) ^ 1)
    return slot


@gluon.jit
def filled_slot(ready, step, NUM_STAGES: gl.constexpr):
    """The MMA warps' slot for ring step `step`, once its TMA bytes have landed (its `ready` barrier)."""
    slot = step % NUM_STAGES
    mbarrier.wait(ready.index(slot), (step // NUM_STAGES) & 1)
    return slot


@gluon.jit
def release_previous_slot(empty, step, NUM_STAGES: gl.constexpr, pred):
    """Hand the slot of ring step `step - 1` back to the loader (where `pred`): its wgmma has retired."""
    mbarrier.arrive(empty.index((step + NUM_STAGES - 1) % NUM_STAGES), pred=pred)


@gluon.jit
def tile_id_slots(NUM_STAGES: gl.constexpr):
    """One int32 per ring slot: the flat tile id whose loads fill it, under a dynamic schedule."""
    return gl.allocate_shared_memory(gl.int32, [NUM_STAGES, 1], gl.SwizzledSharedLayout(1, 1, 1, order=[0]))


@gluon.jit
def publish_tile_id(tile_ids, slot, tile_id):
    """The loader writes `tile_id` into its slot's entry of tile_id_slots. It does so before its arrival on the
    slot's `ready` barrier, which orders the write before the MMA warps' wait (mbarrier arrive: release,
    wait: acquire, PTX ISA memory consistency model)."""
    tile_ids.index(slot).store(gl.full([1], tile_id, gl.int32, lane_layout(gl.num_warps())))


@gluon.jit
def read_tile_id(tile_ids, ready, step, NUM_STAGES: gl.constexpr):
    """The MMA warps' read of the tile id that the loader published with ring step `step`, once the step's
    slot is filled (filled_slot; k_loop's own wait on that slot then returns at once), made warp-uniform: it
    steers the tile loop around k_loop (warp_uniform)."""
    slot = filled_slot(ready, step, NUM_STAGES)
    return warp_uniform(gl.max(tile_ids.index(slot).load(lane_layout(gl.num_warps())), 0))


@gluon.jit
def tma_store_async(desc, row, col, buffer, tile):
    """Write `tile` at (row, col) of `desc`'s matrix through the shared-memory `buffer` by an asynchronous TMA
    store, once the previous store from `buffer` has read it; the caller awaits the last one."""
    tma.store_wait(0)
    buffer.store(tile)
    fence_async_shared()
    tma.async_copy_shared_to_global(desc, [row, col], buffer)


@gluon.jit
def invalidate_ring(ready, empty, NUM_STAGES: gl.constexpr):
    """Invalidate ring_barriers' mbarriers once both partitions are done with them."""
    for slot in gl.static_range(NUM_STAGES):
        mbarrier.invalidate(ready.index(slot))
        mbarrier.invalidate(empty.index(slot))


# Pruning's formulas for an accumulator_layout tile, callable from Gluon code: the warps along its rows and
# the N of each wgmma.
accumulator_warp_rows = gluon.constexpr_function(pruning.accumulator_warp_rows)
wgmma_columns = gluon.constexpr_function(pruning.wgmma_columns)
row_store_lanes = gluon.constexpr_function(pruning.row_store_lanes)
split_columns = gluon.constexpr_function(pruning.split_columns)


@gluon.constexpr_function
def accumulator_layout(tile_rows, tile_cols, num_warps):
    """The wgmma accumulator layout of a (tile_rows, tile_cols) tile over num_warps MMA warps. Warpgroups
    stack along the rows while 64-row slabs remain (64 rows with 8 warps: side by side along the columns)."""
    warps_rows = accumulator_warp_rows(tile_rows, num_warps)
    return gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[warps_rows, num_warps // warps_rows],
                                     instr_shape=[16, wgmma_columns(tile_rows, tile_cols, num_warps), 16])


@gluon.constexpr_function
def row_store_layout(acc_layout, tile_cols):
    """The layout a wgmma accumulator tile tile_cols wide is converted to before it is stored from registers:
    each thread holds 8 consecutive columns of a row (16 bytes in bf16), row_store_lanes lanes a row's 128-byte
    line (8 lanes from 64 columns on), and each warp the 16 rows of `acc_layout`'s warp, so Triton converts
    through 16 rows of 8·lanes elements of shared memory per warp (2 KB in bf16 at 8 lanes), with no barrier
    across warps. Each warp's store then writes 4 whole lines; with 2 lanes per row it wrote 32 bytes of each
    of 16 rows, 1.01-1.04x slower on the forward's 128×256 and 256×128 tiles (docs/perf-notes.md, entry 42).
    In the accumulator's own layout a thread holds 2 consecutive columns: the stores are 4-byte pieces and the
    L2 sees partial sectors (entry 33). Where the warpgroups sit side by side along the columns (64-row tiles
    over 8 warps) no blocked layout keeps each warp's columns, and the tile is stored as it is rather than
    exchanged between warps."""
    if acc_layout.warps_per_cta[1] != 1:
        return acc_layout
    lanes = row_store_lanes(tile_cols)
    return gl.BlockedLayout(size_per_thread=[lanes // 2, 8], threads_per_warp=[32 // lanes, lanes],
                            warps_per_cta=acc_layout.warps_per_cta, order=[1, 0])


@gluon.constexpr_function
def gather_layout(rows, cols, num_warps):
    """Register layout of a (rows, cols) block of 16-bit elements copied by cp.async: 8 elements (16 bytes) per
    copy, a warp's lanes along a row first, the warps stacked along the rows."""
    lanes_along_row = min(32, cols // 8)
    return gl.BlockedLayout([1, 8], [32 // lanes_along_row, lanes_along_row], [num_warps, 1], [1, 0])


@gluon.jit
def gathered_rows(gather_indices_ptr, row_start, first, m_size, BLOCK_ROWS: gl.constexpr, BLOCK_COLS: gl.constexpr,
                  TOPK: gl.constexpr):
    """The token-order rows that rows first … first+BLOCK_ROWS of an expert (sorted rows from row_start) read:
    gather_indices[row_start + i] // TOPK, with the mask of the rows below m_size, in gather_layout's rows.
    Looked up once per tile and kept as int32 (fewer registers than pointers) for every K step's
    gather_async."""
    layout: gl.constexpr = gather_layout(BLOCK_ROWS, BLOCK_COLS, gl.num_warps())
    offs_m = first + gl.arange(0, BLOCK_ROWS, layout=gl.SliceLayout(1, layout))
    row_ok = offs_m < m_size
    return gl.load(gather_indices_ptr + row_start + offs_m, mask=row_ok, other=0) // TOPK, row_ok


@gluon.jit
def gather_async(slot, src_ptr, row_length, src_rows, row_ok, col0):
    """cp.async columns col0 … of rows src_rows (gathered_rows) of src, a row-major matrix with row_length
    columns, into `slot`, whose shape is the block; rows not in row_ok and columns past row_length are
    zero-filled. The caller arrives on a barrier for them (async_copy.mbarrier_arrive)."""
    layout: gl.constexpr = gather_layout(slot.shape[0], slot.shape[1], gl.num_warps())
    offs_c = col0 + gl.arange(0, slot.shape[1], layout=gl.SliceLayout(0, layout))
    ptrs = src_ptr + gl.expand_dims(src_rows.to(gl.int64) * row_length, 1) + gl.expand_dims(offs_c, 0)
    mask = gl.expand_dims(row_ok, 1) & gl.expand_dims(offs_c < row_length, 0)
    async_copy.async_copy_global_to_shared(slot, ptrs, mask=mask)


def hopper_target() -> bool:
    """True when Triton compiles for compute capability 9.x (the GPU's, or a compile worker's target)."""
    from triton.runtime import driver

    return driver.active.get_current_target().arch // 10 == 9


def tma_descriptor(t: torch.Tensor, row_count: int, row_length: int, block: list[int]) -> TensorDescriptor:
    """A host TMA descriptor of `t` read as a row-major (row_count, row_length) matrix, in `block` tiles
    with the default NVMMA shared layout (128-byte swizzle where the block's rows allow it)."""
    dtype = getattr(gl, str(t.dtype).removeprefix("torch."))
    layout = gl.NVMMASharedLayout.get_default_for(block, dtype)
    return TensorDescriptor(t, [row_count, row_length], [row_length, 1], block, layout)
