"""Forward and dX grouped GEMM over 192-row tiles: three MMA warpgroups in 12 warps, Gluon, Hopper.

The tile of gemmtune.kernels.fwd_ws with BLOCK_SIZE_M 192: each of three partitions of one warpgroup (4 warps)
computes 64 of the tile's rows with one m64nNk16 wgmma per k16, as each warpgroup of fwd_ws's 128-row tile
does. The tile reads 22 % fewer operand bytes per flop than 128×256 (56 KB per 6.3 MFLOP per K step at 192×256,
against 48 KB per 4.2), and under the H200's 700 W limit fewer L2 bytes buy clock: on dense GEMMs of mixtral's
and llama4-scout's gate_up sizes the probe of this kernel ran 1.023× and 1.007× torch.mm, at 1530 MHz where
the 128×256 tiles ran at 1425-1530 (docs/perf-notes.md, entry 56).

A separate loader warp would make 13 warps, which Triton pads to 16, and 16 warps leave ptxas 128 registers
per thread, too few for a 64×256 accumulator (entry 28). So the first partition also issues the ring's TMA
loads, STAGES - 1 steps ahead: at each K step, after releasing the slot its previous wgmma read, it waits
until all three partitions have released that slot (the `empty` barrier counts three arrivals) and refills
it. 12 warps run at 168 registers each.

Each partition stores its own 64 rows from registers (fwd_ws.store_rows). A partition whose 64 rows lie past
its expert's last row does no MMA on that tile: it only waits for each slot and releases it, so an expert's
last block costs MMA work in slabs of 64 rows. Operands as in fwd_ws: X (dY) pregathered in expert order
and read by TMA, W by TMA, Y (dX) scattered under permute_y (permute_x) and scaled by topk_weights with
fuse_mul_post. No merged tails, no dynamic schedule, no TMA store (gemmtune.pruning.three_warpgroup_rule).
"""

from __future__ import annotations

from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import mbarrier, tma, warpgroup_mma, warpgroup_mma_wait

from gemmtune.config import KernelConfigBackward_dX, KernelConfigForward
from gemmtune.kernels.common import e_pad, launch, num_sms
from gemmtune.kernels import hopper_ws
from gemmtune.kernels.fwd_ws import store_rows, tile_origin, w_box_origin
from gemmtune.kernels.hopper_ws import (
    accumulator_layout,
    expert_vectors,
    filled_slot,
    free_slot,
    invalidate_ring,
    release_previous_slot,
    ring_slots,
    tma_descriptor,
    warp_uniform,
)

CONSTEXPR_K_STEPS = False  # A/B switch for the probe, temporary
SKIP_EMPTY_SLABS_DEFAULT = True  # A/B switch for the probe, temporary

WARPGROUP_ROWS = gl.constexpr(64)
MMA_WARPGROUPS = gl.constexpr(3)
PARTITION_REGISTERS = gl.constexpr(168)  # 65,536 registers over 384 threads, rounded down to a multiple of 8


@gluon.jit
def load_origin(step, k_steps, offs_e, m_sizes, row_end, tiles, tile_end, num_n_tiles, NUM_SMS: gl.constexpr,
                BLOCK_SIZE_N: gl.constexpr, GROUP_SIZE_M: gl.constexpr):
    """(expert, X's first row, first output column, rows of the expert from that row on) of the tile that this
    program's ring step `step` (counted over all its tiles) loads for."""
    tile_id = gl.program_id(0) + (step // k_steps) * NUM_SMS
    e, row_start, m_size, m0, n0, tail = tile_origin(tile_id, offs_e, m_sizes, row_end, tiles, tile_end, num_n_tiles,
                                                     MMA_WARPGROUPS * WARPGROUP_ROWS, BLOCK_SIZE_N, GROUP_SIZE_M, 0)
    return e, row_start + m0, n0, m_size - m0


@gluon.jit
def load_step(x_desc, w_desc, x_slots, w_slots, ready, empty, step, total_steps, k0, e, x_row, n0, rows, N, K,
              NUM_STAGES: gl.constexpr, DX: gl.constexpr, SKIP_EMPTY_SLABS: gl.constexpr):
    """The TMA loads of ring step `step` (at reduction offset k0 of the tile at load_origin's e, x_row, n0,
    rows), if this program has that many: X's three 64-row blocks (with SKIP_EMPTY_SLABS only those with rows
    of the expert, the others' partitions pass the slot on unread) and W's block, once every partition has
    released the slot."""
    if step < total_steps:
        slot = free_slot(empty, step, NUM_STAGES)
        w_bytes: gl.constexpr = w_desc.block_type.nbytes
        x_bytes: gl.constexpr = x_desc.block_type.nbytes
        if SKIP_EMPTY_SLABS:  # exactly one of the three expects arrives on the slot's barrier
            mbarrier.expect(ready.index(slot), x_bytes + w_bytes, pred=rows <= WARPGROUP_ROWS)
            mbarrier.expect(ready.index(slot), 2 * x_bytes + w_bytes,
                            pred=(rows > WARPGROUP_ROWS) & (rows <= 2 * WARPGROUP_ROWS))
            mbarrier.expect(ready.index(slot), 3 * x_bytes + w_bytes, pred=rows > 2 * WARPGROUP_ROWS)
        else:
            mbarrier.expect(ready.index(slot), MMA_WARPGROUPS * x_bytes + w_bytes)
        for wg in gl.static_range(MMA_WARPGROUPS):
            tma.async_copy_global_to_shared(x_desc, [x_row + wg * WARPGROUP_ROWS, k0], ready.index(slot),
                                            x_slots.index(slot * MMA_WARPGROUPS + wg),
                                            pred=(wg * WARPGROUP_ROWS < rows) | (not SKIP_EMPTY_SLABS))
        w_row, w_col = w_box_origin(e, k0, n0, N, K, DX)
        tma.async_copy_global_to_shared(w_desc, [w_row, w_col], ready.index(slot), w_slots.index(slot))


@gluon.jit
def mma_partition(x_desc, w_desc, x_slots, w_slots, ready, empty, y_ptr, m_sizes_ptr, gather_indices_ptr,
                  topk_weights_ptr, N, K, WARPGROUP: gl.constexpr, LOADS: gl.constexpr, NUM_EXPERTS: gl.constexpr,
                  E_PAD: gl.constexpr, NUM_SMS: gl.constexpr, BLOCK_SIZE_N: gl.constexpr,
                  BLOCK_SIZE_K: gl.constexpr, GROUP_SIZE_M: gl.constexpr, NUM_STAGES: gl.constexpr,
                  SCATTER_ROWS: gl.constexpr, FUSE_MUL_POST: gl.constexpr, DX: gl.constexpr,
                  UNIFORM_CONTROL: gl.constexpr, K_STEPS: gl.constexpr, SKIP_EMPTY_SLABS: gl.constexpr):
    """Rows WARPGROUP·64 … +63 of each of this program's tiles (p, p + NUM_SMS, …); with LOADS also every
    TMA load of the ring (load_step), STAGES - 1 steps ahead of its own K loop. The loads' tile is looked up
    once per tile (a lookup per step, integer divisions and reductions over the experts, made this partition
    the kernel's bottleneck on the H200: docs/perf-notes.md, entry 56), and the expert vectors are held whole
    by each warp, so that the partitions' reductions over them need no shared scratch."""
    num_n_tiles = gl.cdiv(N, BLOCK_SIZE_N)
    offs_e, m_sizes, row_end, tiles, tile_end, total_tiles = expert_vectors(
        m_sizes_ptr, NUM_EXPERTS, E_PAD, MMA_WARPGROUPS * WARPGROUP_ROWS, num_n_tiles, 0, True)
    k_steps = gl.cdiv(K, BLOCK_SIZE_K)
    if K_STEPS > 0:
        k_steps = K_STEPS
    my_tiles = gl.cdiv(total_tiles - gl.program_id(0), NUM_SMS)
    if UNIFORM_CONTROL:
        my_tiles = warp_uniform(my_tiles)
    total_steps = my_tiles * k_steps
    if LOADS:
        for step in gl.static_range(NUM_STAGES - 1):
            e, x_row, n0, rows = load_origin(step, k_steps, offs_e, m_sizes, row_end, tiles, tile_end, num_n_tiles,
                                             NUM_SMS, BLOCK_SIZE_N, GROUP_SIZE_M)
            load_step(x_desc, w_desc, x_slots, w_slots, ready, empty, step, total_steps,
                      (step % k_steps) * BLOCK_SIZE_K, e, x_row, n0, rows, N, K, NUM_STAGES, DX, SKIP_EMPTY_SLABS)
    # The tile of the next load (ring step NUM_STAGES - 1 on), kept until a load crosses into the next tile.
    load_e, load_x_row, load_n0, load_rows = load_origin(NUM_STAGES - 1, k_steps, offs_e, m_sizes, row_end, tiles, tile_end,
                                                         num_n_tiles, NUM_SMS, BLOCK_SIZE_N, GROUP_SIZE_M)
    acc_layout: gl.constexpr = accumulator_layout(WARPGROUP_ROWS, BLOCK_SIZE_N, 4)
    step = 0
    for t in range(my_tiles):
        e, row_start, m_size, m0, n0, tail = tile_origin(gl.program_id(0) + t * NUM_SMS, offs_e, m_sizes, row_end,
                                                         tiles, tile_end, num_n_tiles,
                                                         MMA_WARPGROUPS * WARPGROUP_ROWS, BLOCK_SIZE_N,
                                                         GROUP_SIZE_M, 0)
        rows0 = m0 + WARPGROUP * WARPGROUP_ROWS
        has_rows = rows0 < m_size
        if UNIFORM_CONTROL:
            has_rows = warp_uniform(has_rows.to(gl.int32)) != 0
        if has_rows:
            acc = gl.zeros((WARPGROUP_ROWS, BLOCK_SIZE_N), gl.float32, acc_layout)
            for k_step in range(k_steps):
                slot = filled_slot(ready, step, NUM_STAGES)
                x = x_slots.index(slot * MMA_WARPGROUPS + WARPGROUP)
                w = w_slots.index(slot)
                if DX:  # W[e]'s (reduction, output) block, seen as the forward's (output, reduction)
                    w = w.permute((1, 0))
                acc = warpgroup_mma(x, w.permute((1, 0)), acc, is_async=True)
                acc, x, w = warpgroup_mma_wait(1, deps=[acc, x, w])
                release_previous_slot(empty, step, NUM_STAGES, k_step > 0)
                if LOADS:  # refill the slot just released (on a tile's first step, the one released before)
                    load = step + NUM_STAGES - 1
                    load_k = load % k_steps
                    if load_k == 0:
                        load_e, load_x_row, load_n0, load_rows = load_origin(
                            load, k_steps, offs_e, m_sizes, row_end, tiles, tile_end, num_n_tiles, NUM_SMS,
                            BLOCK_SIZE_N, GROUP_SIZE_M)
                    load_step(x_desc, w_desc, x_slots, w_slots, ready, empty, load, total_steps,
                              load_k * BLOCK_SIZE_K, load_e, load_x_row, load_n0, load_rows, N, K, NUM_STAGES, DX,
                              SKIP_EMPTY_SLABS)
                step += 1
            acc = warpgroup_mma_wait(0, deps=[acc])
            release_previous_slot(empty, step, NUM_STAGES, True)
            store_rows(acc, y_ptr, rows0, m_size, row_start, n0, N, gather_indices_ptr, topk_weights_ptr,
                       SCATTER_ROWS, FUSE_MUL_POST, True)
        else:  # all 64 rows past the expert's end (never the first partition, which loads): pass the slots on
            for k_step in range(k_steps):
                slot = filled_slot(ready, step, NUM_STAGES)
                mbarrier.arrive(empty.index(slot))
                step += 1


@gluon.jit
def grouped_gemm_ws3_kernel(x_desc, w_desc, y_ptr, m_sizes_ptr, gather_indices_ptr, topk_weights_ptr, N, K,
                            NUM_EXPERTS: gl.constexpr, E_PAD: gl.constexpr, NUM_SMS: gl.constexpr,
                            BLOCK_SIZE_N: gl.constexpr, BLOCK_SIZE_K: gl.constexpr, GROUP_SIZE_M: gl.constexpr,
                            NUM_STAGES: gl.constexpr, SCATTER_ROWS: gl.constexpr, FUSE_MUL_POST: gl.constexpr,
                            DX: gl.constexpr, UNIFORM_CONTROL: gl.constexpr, K_STEPS: gl.constexpr,
                            SKIP_EMPTY_SLABS: gl.constexpr):
    """Y (rows, N) = X (rows, K) · W[e]ᵀ per expert over 192-row tiles, or with DX dX = dY · W[e] (N and K the
    output columns and the reduction, as in fwd_ws); launched by launch_ws3."""
    x_slots = gl.allocate_shared_memory(x_desc.dtype, [NUM_STAGES * MMA_WARPGROUPS] + x_desc.block_type.shape,
                                        x_desc.layout)
    w_slots = ring_slots(w_desc, NUM_STAGES)
    ready = gl.allocate_shared_memory(gl.int64, [NUM_STAGES, 1], mbarrier.MBarrierLayout())
    empty = gl.allocate_shared_memory(gl.int64, [NUM_STAGES, 1], mbarrier.MBarrierLayout())
    for slot in gl.static_range(NUM_STAGES):
        mbarrier.init(ready.index(slot), count=1)
        mbarrier.init(empty.index(slot), count=MMA_WARPGROUPS)
    gl.warp_specialize(
        [
            (mma_partition, (x_desc, w_desc, x_slots, w_slots, ready, empty, y_ptr, m_sizes_ptr, gather_indices_ptr,
                             topk_weights_ptr, N, K, 0, True, NUM_EXPERTS, E_PAD, NUM_SMS, BLOCK_SIZE_N,
                             BLOCK_SIZE_K, GROUP_SIZE_M, NUM_STAGES, SCATTER_ROWS, FUSE_MUL_POST, DX,
                             UNIFORM_CONTROL, K_STEPS, SKIP_EMPTY_SLABS)),
            (mma_partition, (x_desc, w_desc, x_slots, w_slots, ready, empty, y_ptr, m_sizes_ptr, gather_indices_ptr,
                             topk_weights_ptr, N, K, 1, False, NUM_EXPERTS, E_PAD, NUM_SMS, BLOCK_SIZE_N,
                             BLOCK_SIZE_K, GROUP_SIZE_M, NUM_STAGES, SCATTER_ROWS, FUSE_MUL_POST, DX,
                             UNIFORM_CONTROL, K_STEPS, SKIP_EMPTY_SLABS)),
            (mma_partition, (x_desc, w_desc, x_slots, w_slots, ready, empty, y_ptr, m_sizes_ptr, gather_indices_ptr,
                             topk_weights_ptr, N, K, 2, False, NUM_EXPERTS, E_PAD, NUM_SMS, BLOCK_SIZE_N,
                             BLOCK_SIZE_K, GROUP_SIZE_M, NUM_STAGES, SCATTER_ROWS, FUSE_MUL_POST, DX,
                             UNIFORM_CONTROL, K_STEPS, SKIP_EMPTY_SLABS)),
        ],
        [4, 4],
        [PARTITION_REGISTERS, PARTITION_REGISTERS],
    )
    invalidate_ring(ready, empty, NUM_STAGES)


def launch_ws3(a, w, out, m_sizes, gather_indices, topk_weights,
               config: KernelConfigForward | KernelConfigBackward_dX, topk: int, warmup: bool):
    """Launch grouped_gemm_ws3_kernel (or only compile it with warmup=True) for a forward or dX config with
    BLOCK_SIZE_M 192 and 12 warps; arguments as gemmtune.kernels.fwd_ws.launch_ws, with `a` always in expert
    order (pregathered where routed). Returns Triton's compiled kernel."""
    E, N, K = w.shape
    dx = config.mode == "dx"
    if dx:
        out_cols, reduction, block_out, block_reduction = K, N, config.BLOCK_SIZE_K, config.BLOCK_SIZE_N
    else:
        out_cols, reduction, block_out, block_reduction = N, K, config.BLOCK_SIZE_N, config.BLOCK_SIZE_K
    rows = out.shape[0]
    # Rows past an expert's end are loaded and never stored, as in fwd_ws (TMA's zeros past the last row).
    a_desc = tma_descriptor(a, a.shape[0], reduction, [int(WARPGROUP_ROWS), block_reduction])
    w_desc = tma_descriptor(w, E * N, K, [block_reduction, block_out] if dx else [block_out, block_reduction])
    tiles = (rows // config.BLOCK_SIZE_M + 1 + E) * -(-out_cols // block_out)  # an upper bound
    return launch(
        grouped_gemm_ws3_kernel,
        tiles,
        warmup,
        a_desc,
        w_desc,
        out,
        m_sizes,
        gather_indices,
        topk_weights if topk_weights is not None else out,
        out_cols,
        reduction,
        NUM_EXPERTS=E,
        E_PAD=e_pad(E),
        NUM_SMS=num_sms(),
        BLOCK_SIZE_N=block_out,
        BLOCK_SIZE_K=block_reduction,
        GROUP_SIZE_M=config.GROUP_SIZE_M,
        NUM_STAGES=config.num_stages,
        SCATTER_ROWS=config.permute_x if dx else config.permute_y,
        FUSE_MUL_POST=config.fuse_mul_post,
        DX=dx,
        UNIFORM_CONTROL=hopper_ws.UNIFORM_CONTROL_DEFAULT,
        K_STEPS=-(-reduction // block_reduction) if CONSTEXPR_K_STEPS else 0,
        SKIP_EMPTY_SLABS=SKIP_EMPTY_SLABS_DEFAULT,
        num_warps=4,  # the first partition's; the other two are workers of 4 warps each
    )
