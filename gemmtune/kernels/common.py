"""What the three grouped-GEMM kernels share: the expert tile schedule, the M swizzle, launch helpers.

Schedule: a persistent grid of NUM_SMS programs walks a flat list of output tiles. Each program loads
m_sizes once and computes, in registers, every expert's row offset and tile offset (two `tl.cumsum` over
E_PAD lanes); mapping a tile to its expert is then one vector compare and sum, not a serial walk over the
experts. No host sync and no extra launch: the tile count lives on the device.
"""

from __future__ import annotations

import functools
import os

import torch
import triton
import triton.language as tl


def interpreting() -> bool:
    """True when Triton runs kernels on its CPU interpreter (TRITON_INTERPRET=1, read at import of the kernels)."""
    return os.environ.get("TRITON_INTERPRET", "0") not in ("", "0")


def dot_flags(dtype: torch.dtype) -> dict:
    """Constexprs for tl.dot. The interpreter's bf16 tl.dot is wrong upstream, so operands are cast to fp32
    there only; fp32 inputs use IEEE precision (no tf32), matching torch's default for fp32 matmul."""
    return {
        "DOT_FP32": interpreting() and dtype != torch.float32,
        "DOT_PRECISION": "ieee" if dtype == torch.float32 else "tf32",
    }


@functools.cache
def num_sms(device_index: int | None = None) -> int:
    """Streaming multiprocessors of the CUDA device; 4 programs on the interpreter (they run one by one).

    GEMMTUNE_NUM_SMS, when set, wins: gemmtune's compile workers set it to the target GPU's SM count so they
    build the very kernel the GPU worker will launch (NUM_SMS is a constexpr) without touching CUDA.
    """
    if os.environ.get("GEMMTUNE_NUM_SMS"):
        return int(os.environ["GEMMTUNE_NUM_SMS"])
    if interpreting() or not torch.cuda.is_available():
        return 4
    return torch.cuda.get_device_properties(device_index or torch.cuda.current_device()).multi_processor_count


def ensure_tma_allocator(device: torch.device) -> None:
    """Device-side TMA descriptors (`tl.make_tensor_descriptor`) need a global scratch allocator."""

    def alloc(size: int, alignment: int, stream):
        return torch.empty(size, dtype=torch.int8, device=device)

    triton.set_allocator(alloc)


def e_pad(E: int) -> int:
    """Lanes for per-expert vectors: E rounded up to a power of two (tl.arange needs one)."""
    return triton.next_power_of_2(max(E, 2))


def check_launch(config, m_sizes: torch.Tensor, gather_indices: torch.Tensor, E: int, rows: int, topk: int) -> None:
    """The checks every mode's launch wrapper makes before launching.

    The routing tensors' shapes and dtypes, rows a multiple of topk, and the mode's flag rules, which are
    the pruning rules themselves (gemmtune.pruning.mode_rule: one definition of what a kernel refuses).
    Raises ValueError with the offending value.
    """
    from gemmtune.pruning import mode_rule

    if m_sizes.shape != (E,) or m_sizes.dtype != torch.int32:
        raise ValueError(f"m_sizes must be ({E},) int32, got {tuple(m_sizes.shape)} {m_sizes.dtype}")
    if gather_indices.shape != (rows,) or gather_indices.dtype != torch.int32:
        raise ValueError(f"gather_indices must be ({rows},) int32, got {tuple(gather_indices.shape)} {gather_indices.dtype}")
    if rows % topk:
        raise ValueError(f"gather_indices has {rows} rows, not a multiple of topk = {topk}")
    reason = mode_rule(config)
    if reason:
        raise ValueError(reason)


def runs_gluon_kernel(config) -> bool:
    """True when `config` selects a warp-specialized Gluon kernel (gemmtune.kernels.fwd_ws, dw_ws): the
    warp_specialize knob on a compute capability 9.x target. Gluon kernels are compiled, never interpreted
    (and are imported only here and by the launchers that need them)."""
    if not config.warp_specialize or interpreting():
        return False
    from gemmtune.kernels.hopper_ws import hopper_target

    return hopper_target()


def check_tma_operand(name: str, t: torch.Tensor) -> None:
    """TMA needs a 16-byte aligned base and row stride. Raises ValueError with the offending values."""
    if t.data_ptr() % 16 or any(s * t.element_size() % 16 for s in t.stride()[:-1]):
        raise ValueError(
            f"TMA on {name} needs a 16-byte aligned base and row strides, got strides {t.stride()} "
            f"of {t.element_size()}-byte elements"
        )


def prepare_tma(device: torch.device, operands) -> None:
    """Check each TMA operand's 16-byte alignment and install the descriptor allocator if any is used.

    operands: (name, used, tensor) triples. Raises ValueError for a misaligned operand that TMA would move.
    """
    used = [(name, tensor) for name, flag, tensor in operands if flag]
    for name, tensor in used:
        check_tma_operand(name, tensor)
    if used:
        ensure_tma_allocator(device)


def kernel_permutations(config) -> dict:
    """PERMUTE_X / PERMUTE_Y as the kernel sees them: a permutation the wrapper already applied by
    pregathering its operand (gemmtune.pruning.GATHERED_LOADS) is off in the kernel."""
    from gemmtune.pruning import GATHERED_LOADS

    permutations = {"permute_x": config.permute_x, "permute_y": config.permute_y}
    if config.pregather:
        for _, permutation in GATHERED_LOADS[config.mode]:
            permutations[permutation] = False
    return {"PERMUTE_X": permutations["permute_x"], "PERMUTE_Y": permutations["permute_y"]}


def shared_meta(config, E: int, dtype: torch.dtype) -> dict:
    """The constexprs and launch options every mode's kernel takes, read off its config."""
    return dict(
        NUM_EXPERTS=E,
        E_PAD=e_pad(E),
        NUM_SMS=num_sms(),
        BLOCK_SIZE_M=config.BLOCK_SIZE_M,
        BLOCK_SIZE_N=config.BLOCK_SIZE_N,
        BLOCK_SIZE_K=config.BLOCK_SIZE_K,
        GROUP_SIZE_M=config.GROUP_SIZE_M,
        **kernel_permutations(config),
        USE_TMA_STORE=config.use_tma_store,
        FLATTEN=config.flatten,
        WARP_SPECIALIZE=config.warp_specialize,
        num_warps=config.num_warps,
        num_stages=config.num_stages,
        **dot_flags(dtype),
    )


def launch(kernel, tiles: int, warmup: bool, *args, **meta):
    """Launch `kernel` on a persistent grid of min(NUM_SMS, tiles) programs, or only compile it (warmup).

    Returns Triton's compiled kernel (None on the interpreter).
    """
    grid = (max(1, min(meta["NUM_SMS"], tiles)),)
    if warmup:
        return kernel.warmup(*args, grid=grid, **meta)
    return kernel[grid](*args, **meta)

@triton.jit
def expert_tiles(m_sizes_ptr, NUM_EXPERTS: tl.constexpr, E_PAD: tl.constexpr, BLOCK_SIZE_M: tl.constexpr, tiles_per_m_block):
    """Per-expert vectors over E_PAD lanes: (lane ids, m_sizes, row_end, tiles, tile_end) and the tile total.

    row_end[e] = m_sizes[0] + … + m_sizes[e] (inclusive); tiles[e] = cdiv(m_sizes[e], BLOCK_SIZE_M) ·
    tiles_per_m_block; tile_end is its inclusive cumulative sum.
    """
    offs_e = tl.arange(0, E_PAD)
    m_sizes = tl.load(m_sizes_ptr + offs_e, mask=offs_e < NUM_EXPERTS, other=0)
    tiles = tl.cdiv(m_sizes, BLOCK_SIZE_M) * tiles_per_m_block
    return offs_e, m_sizes, tl.cumsum(m_sizes, 0), tiles, tl.cumsum(tiles, 0), tl.sum(tiles, 0)


@triton.jit
def expert_rows(e, offs_e, m_sizes, row_end):
    """Expert e's first sorted row and row count, read off the per-expert vectors of expert_tiles."""
    here = offs_e == e
    return tl.sum(tl.where(here, row_end - m_sizes, 0), 0), tl.sum(tl.where(here, m_sizes, 0), 0)


@triton.jit
def row_block_descriptors(ptr, rows, cols, BLOCK_ROWS: tl.constexpr, BLOCK_COLS: tl.constexpr,
                          HALF_TAIL: tl.constexpr):
    """Device TMA descriptors of a row-major (rows, cols) matrix: in (BLOCK_ROWS, BLOCK_COLS) blocks, and with
    HALF_TAIL in half-height blocks for an expert's last M block. Without HALF_TAIL the second is the first,
    a stand-in the constexpr-false half-tile branch never reads (a Triton function cannot return None)."""
    desc = tl.make_tensor_descriptor(ptr, [rows, cols], [cols, 1], [BLOCK_ROWS, BLOCK_COLS])
    half_desc = desc
    if HALF_TAIL:
        half_desc = tl.make_tensor_descriptor(ptr, [rows, cols], [cols, 1], [BLOCK_ROWS // 2, BLOCK_COLS])
    return desc, half_desc


@triton.jit
def locate_tile(tile_id, offs_e, m_sizes, row_end, tiles, tile_end):
    """The expert of flat tile `tile_id`, its first sorted row, its row count and the tile's index within it."""
    e = tl.sum((tile_end <= tile_id).to(tl.int32), 0)
    row_start, m_size = expert_rows(e, offs_e, m_sizes, row_end)
    local = tile_id - tl.sum(tl.where(offs_e == e, tile_end - tiles, 0), 0)
    return e, row_start, m_size, local


@triton.jit
def swizzle_tile(local, num_m_tiles, num_other_tiles, GROUP_SIZE_M: tl.constexpr):
    """Grouped ordering (Triton tutorial 03): GROUP_SIZE_M consecutive M tiles share each column tile in L2."""
    width = GROUP_SIZE_M * num_other_tiles
    first_m = (local // width) * GROUP_SIZE_M
    group_rows = tl.minimum(num_m_tiles - first_m, GROUP_SIZE_M)
    pid_m = first_m + (local % width) % group_rows
    pid_other = (local % width) // group_rows
    return pid_m, pid_other


@triton.jit
def tile_rows(gather_indices_ptr, row_start, m_size, m0, BLOCK_SIZE_M: tl.constexpr, GATHER: tl.constexpr):
    """Rows m0 … m0+BLOCK_SIZE_M of an expert: (row mask, sorted rows, their gather_indices entries).

    Rows past the expert's end stand for row_start instead, so loads need no M mask and the store drops
    them. The gather_indices entries (token·topk pairs) are loaded only with GATHER; else they are the rows.
    """
    offs_m = m0 + tl.arange(0, BLOCK_SIZE_M)
    row_mask = offs_m < m_size
    rows = row_start + tl.where(row_mask, offs_m, 0)
    pairs = rows
    if GATHER:
        pairs = tl.load(gather_indices_ptr + rows)
    return row_mask, rows, pairs


@triton.jit
def load_tile(desc, ptrs, row0, col0, mask, USE_TMA: tl.constexpr, NO_MASK: tl.constexpr):
    """An operand tile: through the TMA descriptor at (row0, col0) with USE_TMA, else from `ptrs`, masked
    (zeros outside `mask`) unless NO_MASK."""
    if USE_TMA:
        tile = desc.load([row0, col0])
    elif NO_MASK:
        tile = tl.load(ptrs)
    else:
        tile = tl.load(ptrs, mask=mask, other=0.0)
    return tile


@triton.jit
def store_tile(out_ptr, out_desc, tile, dst, row_mask, offs_col, col_mask, row0, col0, full_tile, row_length,
               USE_TMA_STORE: tl.constexpr):
    """Store an output tile into rows `dst` of a row-major output with `row_length` columns.

    row_mask and col_mask say which elements are real; with USE_TMA_STORE a full tile (full_tile true: every
    row belongs to the expert) goes through out_desc at (row0, col0), which clips columns itself, and a
    partial one through the masked store, since TMA would overwrite the next expert's rows. (Two ifs, no
    else: Triton 3.6 cannot flatten a loop around an if/else holding the TMA store.)
    """
    ptrs = out_ptr + dst.to(tl.int64)[:, None] * row_length + offs_col[None, :]
    mask = row_mask[:, None] & col_mask[None, :]
    if USE_TMA_STORE:
        if full_tile:
            out_desc.store([row0, col0], tile)
        tl.store(ptrs, tile, mask=mask & ~full_tile)
    else:
        tl.store(ptrs, tile, mask=mask)
