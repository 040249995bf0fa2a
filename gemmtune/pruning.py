"""Pruning rules: which configs can never run, or never win, and why.

Each rule takes a config and returns the reason it is pruned, or None. A config is pruned by the first rule
that fires, in the order of RULES; every pruned config keeps its rule and reason.

- mode: combinations the kernels refuse (TMA cannot load a gathered operand nor store a scattered one;
  half_tail needs 32-row blocks and does nothing with flatten; TAIL_ROWS needs warp_specialize and a power
  of two from 8 below BLOCK_SIZE_M; dynamic_schedule needs warp_specialize; block sizes are powers of two,
  except an output block's columns in the Gluon forward and dX kernel, which split_columns makes two
  accumulators: block_shape_rule).
- device: TMA needs compute capability ≥ 9.0 (Hopper). Warp specialization too: on Hopper it is the Gluon
  kernels of gemmtune.kernels.fwd_ws (fwd and dX) and dw_ws, with their own limits
  (hopper_warp_specialize_rule); from 10.0 it is Triton's `tl.range(warp_specialize=True)` (Triton 3.6's
  docstring: Blackwell only; compiled for sm_90 that kernel is the same with and without it, checked with
  benchmarks/sass_report.py).
- tma_alignment: a TMA descriptor's row stride must be a multiple of 16 bytes (CUDA Driver API,
  cuTensorMapEncodeTiled: globalStrides multiple of 16).
- shared_memory: the software pipeline holds num_stages copies of both operand tiles in shared memory;
  more than the device's opt-in limit per block fails at launch with OutOfResources.
- registers: the fp32 accumulator alone takes (tile rows · tile cols) / (32 · num_warps) registers per
  thread; above 255 (the per-thread limit of every CUDA GPU since Kepler) it spills for certain.
- problem_size: a block larger than the next power of two of its dimension only computes padding; split_tail
  over a reduction of fewer than TAIL_SPLIT_STEPS blocks runs the carried tail's kernel (splits_tails).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import triton

from gemmtune.config import KernelConfig
from gemmtune.device import DeviceProperties
from gemmtune.problem import Problem

MAX_REGISTERS_PER_THREAD = 255
MBARRIER_BYTES = 8
WARP_SPECIALIZE_SCRATCH_BYTES = 160
# The Gluon kernels convert a tile they store from registers, where each warp keeps its rows, through scratch
# of this many rows per warp, each row_store_lanes · 8 elements wide (gemmtune.kernels.hopper_ws.row_store_layout;
# sass_report, sm_90, fwd 128×256 bf16 with 8 warps: 2,048 B per warp at 8 lanes, 512 B at 2).
ROW_STORE_SCRATCH_ROWS_PER_WARP = 16
# A forward loader that gathers X's rows itself is a warpgroup, whose reductions over the experts need
# scratch across its warps (sass_report, sm_90, the default space's 94 such configs of qwen3's gate_up:
# 32-64 B beyond the estimate without it, where the tile has no row-store scratch to absorb it).
GATHER_LOADER_SCRATCH_BYTES = 128
# The Gluon forward kernel's tile and tail accumulators spill above this many fp32 registers per thread
# (sass_report, sm_90: 128×256 tiles, 8 warps, TAIL_ROWS 64 = 192 registers: LDL/STL; TAIL_ROWS 32 = 160: none).
WS_TAIL_ACCUMULATOR_REGISTERS = 160
# A dynamic schedule's tile id per ring slot (int32) and the loader's claim, broadcast through scratch
# (sass_report, sm_90, 48 Gluon forward configs: 0-72 B beyond the same config without it).
DYNAMIC_SCHEDULE_BYTES = 128


@dataclass(frozen=True)
class PrunedConfig:
    """A config that will not run, with the rule that pruned it and a human-readable reason."""

    config: KernelConfig
    rule: str
    reason: str


# The two operand tiles each mode's inner loop loads, and its output tile, as (rows, cols) of block names.
OPERAND_TILES = {
    "fwd": (("BLOCK_SIZE_M", "BLOCK_SIZE_K"), ("BLOCK_SIZE_N", "BLOCK_SIZE_K")),  # X, W
    "dx": (("BLOCK_SIZE_M", "BLOCK_SIZE_N"), ("BLOCK_SIZE_N", "BLOCK_SIZE_K")),  # dY, W
    "dw": (("BLOCK_SIZE_M", "BLOCK_SIZE_N"), ("BLOCK_SIZE_M", "BLOCK_SIZE_K")),  # dY, X
}
OUTPUT_TILE = {
    "fwd": ("BLOCK_SIZE_M", "BLOCK_SIZE_N"),
    "dx": ("BLOCK_SIZE_M", "BLOCK_SIZE_K"),
    "dw": ("BLOCK_SIZE_N", "BLOCK_SIZE_K"),
}


def _tile_elements(config: KernelConfig, names: tuple[str, str]) -> int:
    return getattr(config, names[0]) * getattr(config, names[1])


def shared_memory_bytes(config: KernelConfig, element_size: int) -> int:
    """Shared memory the kernel needs per block, in bytes.

    num_stages buffers of both operand tiles (Triton's software pipeliner on Hopper keeps one buffer per
    stage: 128×128×128 bf16 at 4 stages needs 4·(128·128 + 128·128)·2 = 262,144 B), plus the output
    tile when it is staged for a TMA store (and the half tile beside it with half_tail), one more output
    tile when the loop is flattened, plus one 8-byte mbarrier per stage when TMA loads complete on barriers
    (two, and 160 B of scratch, with warp specialization; the Gluon kernels' 16 rows per warp, up to 64
    columns wide, for their register stores where each warp holds whole rows, 128 B for a loader warpgroup,
    and 128 B for a dynamic schedule's tile ids), num_stages blocks of TAIL_ROWS rows of X (dY in dX) with
    TAIL_ROWS, and for dW the int32 gather indices of one M block. Checked against Triton 3.6's report for
    every config of the default space on the H200 (results/h200/smem-calibration.csv): exact for fwd; an
    upper bound for dX and dW, whose pipeliner keeps fewer buffers for some operands, and for the
    warp-specialized kernel (tests/test_gpu.py).
    """
    per_stage = sum(_tile_elements(config, tile) for tile in OPERAND_TILES[config.mode]) * element_size
    routed_tile = OPERAND_TILES[config.mode][0]  # the merged tail's rows have the routed operand's columns
    per_stage += getattr(config, "TAIL_ROWS", 0) * getattr(config, routed_tile[1]) * element_size
    output_tile = _tile_elements(config, OUTPUT_TILE[config.mode]) * element_size
    # A TMA store stages the output tile; a flattened loop keeps the epilogue's layout-conversion scratch
    # (at most one output tile, measured 1/4 to 1/2 of it) live beside the pipeline buffers.
    staged_output = output_tile * (int(config.use_tma_store) + int(config.flatten))
    if config.use_tma_store and getattr(config, "half_tail", False):
        staged_output += output_tile // 2  # the half tile's store has its own buffer (sass_report: exact)
    tma_loads = any(getattr(config, name) for name in config.tma_load_fields())
    # One mbarrier per stage for TMA loads; warp specialization adds one per stage for the slot's release,
    # and scratch for its partitions' reductions (116-156 B beyond the barriers: sass_report, 3-4 stages,
    # with and without TAIL_ROWS).
    barriers = MBARRIER_BYTES * config.num_stages * (1 + int(config.warp_specialize)) if tma_loads else 0
    scratch = WARP_SPECIALIZE_SCRATCH_BYTES if config.warp_specialize else 0
    if loader_gathers_rows(config):
        scratch += GATHER_LOADER_SCRATCH_BYTES
    if getattr(config, "dynamic_schedule", False):
        scratch += DYNAMIC_SCHEDULE_BYTES
    # Only where every warp stacks along the accumulator's rows does each hold whole rows (row_store_layout).
    accumulator_rows = getattr(config, OUTPUT_TILE[config.mode][0])
    if config.warp_specialize and accumulator_warp_rows(accumulator_rows, config.num_warps) == config.num_warps:
        row_elements = 8 * row_store_lanes(getattr(config, OUTPUT_TILE[config.mode][1]))
        scratch += ROW_STORE_SCRATCH_ROWS_PER_WARP * row_elements * element_size * config.num_warps
    # dW carries each M block's int32 gather indices across iterations through shared memory.
    indices = 4 * config.BLOCK_SIZE_M if config.mode == "dw" else 0
    return config.num_stages * per_stage + staged_output + barriers + scratch + indices


def loader_gathers_rows(config: KernelConfig) -> bool:
    """True when a config has the Gluon kernel's loader gather the routed operand's rows itself by cp.async,
    on Hopper (gemmtune.kernels.fwd_ws): warp_specialize without pregather, and X's rows under permute_x in
    the forward or dY's under permute_y in dX."""
    routed = {"fwd": config.permute_x, "dx": config.permute_y}.get(config.mode, False)
    return config.warp_specialize and routed and not config.pregather


def accumulator_registers(config: KernelConfig) -> int:
    """fp32 accumulator registers per thread: output tile elements (and with TAIL_ROWS the tail's accumulator,
    its output columns × TAIL_ROWS) over the block's threads (warp size 32)."""
    elements = _tile_elements(config, OUTPUT_TILE[config.mode])
    elements += getattr(config, "TAIL_ROWS", 0) * getattr(config, OUTPUT_TILE[config.mode][1])
    return elements // (32 * config.num_warps)


# Per mode, (TMA flag, permutation under which that operand is gathered on load / scattered on store).
GATHERED_LOADS = {
    "fwd": [("use_tma_load_x", "permute_x")],
    "dx": [("use_tma_load_dy", "permute_y")],
    "dw": [("use_tma_load_dy", "permute_y"), ("use_tma_load_x", "permute_x")],
}
SCATTERED_STORES = {"fwd": [("use_tma_store", "permute_y")], "dx": [("use_tma_store", "permute_x")], "dw": []}


def mode_rule(config: KernelConfig) -> str | None:
    """Combinations the mode's kernel refuses: TMA on a gathered operand (unless pregathered) or a scattered
    one, both permutations, pregather with nothing gathered or without TMA on the pregathered operand,
    half_tail below 32-row blocks or with flatten, TAIL_ROWS without warp_specialize or other than a power of
    two from 8 (the tail's rows are the wgmma's N, PTX ISA m64nNk16, and a Gluon tensor dimension) below
    BLOCK_SIZE_M, dynamic_schedule without warp_specialize, split_tail or column_tail without TAIL_ROWS, both of
    them (two ways of sharing one tail), and block shapes (block_shape_rule)."""
    if config.permute_x and config.permute_y:
        return "permute_x and permute_y cannot both be set"
    if config.fuse_mul_post and config.mode != "fwd":
        return "fuse_mul_post only exists in the forward pass"
    if config.fuse_mul_post and not config.permute_y:
        return "fuse_mul_post needs permute_y (the topk weight is applied on the scatter)"
    gathered = [(flag, permutation) for flag, permutation in GATHERED_LOADS[config.mode] if getattr(config, permutation)]
    if config.pregather:
        if not gathered:
            return "pregather: this problem gathers no operand on load"
        flag, permutation = gathered[0]
        if not getattr(config, flag):
            # The copy pays off only through TMA; without it the kernel's own gather does the same loads.
            return f"pregather without {flag}: the pregathered operand is read by TMA or not pregathered"
    else:
        for flag, permutation in gathered:
            if getattr(config, flag):
                return f"{flag} with {permutation}: TMA moves whole tiles and cannot gather rows (see pregather)"
    for flag, permutation in SCATTERED_STORES[config.mode]:
        if getattr(config, flag) and getattr(config, permutation):
            return f"{flag} with {permutation}: TMA moves whole tiles and cannot scatter rows"
    if config.mode == "dw" and config.use_tma_store and config.SPLIT_M > 1:
        return "use_tma_store with SPLIT_M > 1: dW adds partial sums with fp32 atomics, not a TMA store"
    if getattr(config, "half_tail", False) and config.BLOCK_SIZE_M < 32:
        return f"half_tail with BLOCK_SIZE_M = {config.BLOCK_SIZE_M}: a half tile needs 16 rows (tl.dot's minimum)"
    if getattr(config, "half_tail", False) and config.flatten:
        # Compiled for sm_90, the kernel is the one without flatten (benchmarks/sass_report.py).
        return "half_tail with flatten: Triton 3.6 does not flatten the tile loop around two tile shapes"
    tail_rows = getattr(config, "TAIL_ROWS", 0)
    if tail_rows and not config.warp_specialize:
        return "TAIL_ROWS needs warp_specialize (only the Gluon forward and dX kernel computes merged tails)"
    if getattr(config, "dynamic_schedule", False) and not config.warp_specialize:
        return "dynamic_schedule needs warp_specialize (only the Gluon forward and dX kernel claims its tiles)"
    if getattr(config, "split_tail", False) and not tail_rows:
        return "split_tail needs TAIL_ROWS (it splits a merged tail over the expert's tiles)"
    if getattr(config, "column_tail", False) and not tail_rows:
        return "column_tail needs TAIL_ROWS (it splits a merged tail's columns over the expert's last two tiles)"
    if getattr(config, "column_tail", False) and getattr(config, "split_tail", False):
        return "column_tail with split_tail: a tail is shared by columns or by K steps, not both"
    if tail_rows and (tail_rows < 8 or tail_rows & (tail_rows - 1) or tail_rows >= config.BLOCK_SIZE_M):
        return (f"TAIL_ROWS = {tail_rows}: the tail's rows are the wgmma's N (a multiple of 8) and a Gluon tensor "
                f"dimension (a power of two), below BLOCK_SIZE_M = {config.BLOCK_SIZE_M}")
    return block_shape_rule(config)


def block_shape_rule(config: KernelConfig) -> str | None:
    """Block sizes are powers of two (tl.arange's and Gluon's tensor shapes are), all but the output block's
    columns (OUTPUT_TILE's second: fwd BLOCK_SIZE_N, dX BLOCK_SIZE_K), which the Gluon forward and dX
    kernel may split in two accumulators (split_block_rule)."""
    output_columns = OUTPUT_TILE[config.mode][1]
    for name in ("BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K"):
        size = getattr(config, name)
        if name != output_columns and size & (size - 1):
            return f"{name} = {size}: Triton and Gluon block shapes are powers of two"
    return split_block_rule(config)


def split_block_rule(config: KernelConfig) -> str | None:
    """An output block that is not a power of two (split_columns: 192, 320, 384 columns): only the Gluon
    forward and dX kernel computes one, as two accumulators whose second is a power of two too (wgmma N
    from 8: PTX ISA m64nNk16), at 128 rows or more (warpgroups stacked along the rows), without a merged
    tail or a TMA store (each written for one accumulator), and with TMA on the routed operand: beside the
    loader's own gather the second accumulator spilled in the K loop (sass_report, sm_90, 256×192 forward
    tiles)."""
    name = OUTPUT_TILE[config.mode][1]
    width = getattr(config, name)
    main, rest = split_columns(width)
    if not rest:
        return None
    where = f"{name} = {width} is not a power of two"
    if config.mode == "dw" or not config.warp_specialize:
        return f"{where}: only the Gluon forward and dX kernel (warp_specialize) splits an output block"
    if rest & (rest - 1):
        return f"{where}: it splits into {main} + {rest} columns, and the second must be a power of two"
    if getattr(config, OUTPUT_TILE[config.mode][0]) < 128:
        return f"{where}: a split block needs 128 rows or more"
    if getattr(config, "TAIL_ROWS", 0) or config.use_tma_store:
        return f"{where}: a split block has no merged tail (TAIL_ROWS) and no TMA store"
    if loader_gathers_rows(config):
        return f"{where}: a split block needs the routed operand pregathered (the loader's gather spills)"
    return None


def device_rule(config: KernelConfig, problem: Problem, device: DeviceProperties) -> str | None:
    cc = ".".join(map(str, device.compute_capability))
    if config.uses_tma and not device.has_tma:
        return f"TMA needs compute capability >= 9.0, {device.name} has {cc}"
    if config.warp_specialize and device.compute_capability < (9, 0):
        return f"warp specialization needs compute capability >= 9.0, {device.name} has {cc}"
    if config.warp_specialize and device.compute_capability[0] == 9:
        return hopper_warp_specialize_rule(config, problem)
    for knob in ("TAIL_ROWS", "dynamic_schedule", "split_tail", "column_tail"):
        if getattr(config, knob, False):
            return f"{knob} exists in the Hopper (9.x) Gluon forward and dX kernel only, {device.name} has {cc}"
    return None


def accumulator_warp_rows(tile_rows: int, num_warps: int) -> int:
    """How many of num_warps warps the Gluon kernels stack along the rows of a tile_rows-row accumulator
    (gemmtune.kernels.hopper_ws.accumulator_layout), 16 rows each: all of them while 16 rows per warp remain,
    else the rest sit side by side along the columns (64 rows over 8 warps: two warpgroups)."""
    return min(num_warps, tile_rows // 16)


def wgmma_columns(tile_rows: int, tile_cols: int, num_warps: int) -> int:
    """The N of each wgmma over a (tile_rows, tile_cols) accumulator of the Gluon kernels
    (gemmtune.kernels.hopper_ws.accumulator_layout): all tile_cols while the warpgroups stack along the rows,
    half of them for 64 rows over 8 warps (two warpgroups side by side)."""
    # accumulator_warp_rows written out: Triton refuses a plain Python function called from a Gluon
    # constexpr function, which this one is in hopper_ws.
    return tile_cols * min(num_warps, tile_rows // 16) // num_warps


def split_columns(tile_cols: int) -> tuple[int, int]:
    """(columns of the Gluon kernel's main accumulator, columns of its second one) for an output block
    tile_cols wide: (tile_cols, 0) for a power of two, else the largest power of two below it and the rest
    (192 = 128 + 64, 320 = 256 + 64, 384 = 256 + 128). Gluon tensor shapes are powers of two, while a
    wgmma's N may be any multiple of 8 up to 256 (PTX ISA m64nNk16), so such a block is two accumulators,
    each fed by its own W block. A block that packs N better than a power of two does (gpt-oss-20b's 2,880
    and 5,760 in 320- or 384-column blocks) wastes no MMA work on columns past N, and a wider block reads
    fewer operand bytes per flop (docs/perf-notes.md, entry 55)."""
    main = 1 << (tile_cols.bit_length() - 1)
    return main, tile_cols - main


def row_store_lanes(tile_cols: int) -> int:
    """Lanes of a warp along one row of a tile_cols-wide tile that the Gluon kernels store from registers
    (gemmtune.kernels.hopper_ws.row_store_layout), each with 8 consecutive elements: 8 lanes, one 128-byte
    line of a 16-bit row, where the tile is 64 columns wide or more, fewer on narrower tiles."""
    return min(8, tile_cols // 8)


def hopper_warp_specialize_rule(config: KernelConfig, problem: Problem) -> str | None:
    """What the Gluon warp-specialized Hopper kernels (gemmtune.kernels.fwd_ws, dw_ws) support: every mode,
    16-bit inputs, both operands by TMA (the routed one pregathered; in the forward and dX, X's or dY's rows
    may instead be gathered by the loader in 16-byte copies, which needs rows a multiple of 16 bytes), whole
    wgmma warpgroups of 64 accumulator rows (PTX ISA: wgmma.mma_async shapes m64nNk16, N a multiple of 8 up to
    256), and for dW no SPLIT_M. fp32 inputs would run as tf32, whose wgmma takes no transposed operand (PTX
    ISA, wgmma matrix layouts), while the plain kernels compute fp32 in IEEE precision. With TAIL_ROWS, a
    tail wgmma at least 8 columns wide, and the tile's and the tail's accumulators within
    WS_TAIL_ACCUMULATOR_REGISTERS per thread; with column_tail, half of the output block at least one 64-row wgmma
    slab (the half tail's accumulator has those rows) and its tail wgmma 8 columns wide too."""
    if problem.element_size != 2:
        return f"warp specialization on Hopper needs bf16 or fp16 inputs, got {problem.dtype}"
    loads = config.tma_load_fields()
    if loader_gathers_rows(config):  # by 16-byte cp.async, so only W needs TMA
        loads = ["use_tma_load_w"]
        operand, length = ("X", "K") if config.mode == "fwd" else ("dY", "N")
        if getattr(problem, length) * problem.element_size % 16:
            return (f"warp specialization gathers {operand}'s rows in 16-byte copies: rows of {length} = "
                    f"{getattr(problem, length)} are not")
    if not all(getattr(config, name) for name in loads):
        operands = " and ".join(name.removeprefix("use_tma_load_") for name in loads)
        return f"warp specialization on Hopper needs TMA loads of {operands} (the routed one pregathered)"
    if getattr(config, "half_tail", False) or config.flatten:
        return "warp specialization on Hopper has no half_tail or flatten"
    if getattr(config, "SPLIT_M", 1) > 1:
        return "warp specialization on Hopper has no SPLIT_M"
    tile_rows = OUTPUT_TILE[config.mode][0]
    if config.num_warps not in (4, 8) or getattr(config, tile_rows) < 64:
        return (f"warp specialization on Hopper needs whole warpgroups of 64 rows (num_warps 4 or 8, {tile_rows} "
                f">= 64), got {config.num_warps} warps and {tile_rows} = {getattr(config, tile_rows)}")
    tail_rows = getattr(config, "TAIL_ROWS", 0)
    out_cols = OUTPUT_TILE[config.mode][1]  # the tail accumulator's rows: the tile's output columns
    tail_wgmma = wgmma_columns(getattr(config, out_cols), tail_rows, config.num_warps)
    if tail_rows and tail_wgmma < 8:
        return (f"TAIL_ROWS = {tail_rows} with {out_cols} = {getattr(config, out_cols)} over {config.num_warps} "
                f"warps: the tail's wgmma would be {tail_wgmma} columns wide, below the PTX minimum of 8")
    if getattr(config, "column_tail", False):
        half = getattr(config, out_cols) // 2
        half_wgmma = wgmma_columns(half, tail_rows, config.num_warps)
        if half < 64 or half_wgmma < 8:
            return (f"column_tail with {out_cols} = {getattr(config, out_cols)} over {config.num_warps} warps: half "
                    f"the block ({half} rows of the tail's accumulator) needs 64 rows and a tail wgmma of 8 "
                    f"columns or more, got {half_wgmma}")
    registers = accumulator_registers(config)
    if tail_rows and registers > WS_TAIL_ACCUMULATOR_REGISTERS:
        return (f"TAIL_ROWS = {config.TAIL_ROWS}: the tile's and the tail's accumulators take {registers} registers "
                f"per thread, above {WS_TAIL_ACCUMULATOR_REGISTERS} they spill")
    return None


# Row length (in elements) of the tensor behind each TMA flag, per mode, as a Problem attribute.
TMA_ROW_LENGTH = {
    "fwd": {"use_tma_load_x": "K", "use_tma_load_w": "K", "use_tma_store": "N"},
    "dx": {"use_tma_load_dy": "N", "use_tma_load_w": "K", "use_tma_store": "K"},
    "dw": {"use_tma_load_dy": "N", "use_tma_load_x": "K", "use_tma_store": "K"},
}


def tma_alignment_rule(config: KernelConfig, problem: Problem) -> str | None:
    for flag, dim in TMA_ROW_LENGTH[config.mode].items():
        row_bytes = getattr(problem, dim) * problem.element_size
        if getattr(config, flag) and row_bytes % 16:
            return f"{flag}: rows of {dim} = {getattr(problem, dim)} elements are {row_bytes} B, not a multiple of 16"
    return None


def shared_memory_rule(config: KernelConfig, problem: Problem, device: DeviceProperties) -> str | None:
    need = shared_memory_bytes(config, problem.element_size)
    if need > device.SIZE_SMEM:
        return f"needs {need:,} B of shared memory, {device.name} allows {device.SIZE_SMEM:,} B per block"
    return None


def register_rule(config: KernelConfig) -> str | None:
    regs = accumulator_registers(config)
    if regs > MAX_REGISTERS_PER_THREAD:
        return f"accumulator alone needs {regs} registers per thread (limit {MAX_REGISTERS_PER_THREAD}): spills"
    return None


# split_tail splits merged tails only over reductions of at least this many blocks (K steps); over shorter ones the
# carried tail's kernel runs. On the H200, split over all the tiles of their experts' columns, tails ran 0.94-0.97x
# the carried ones at 24-64 K steps, 1.00x at 112, 1.01-1.02x at 128-224 and 1.02-1.10x at 256-448
# (docs/perf-notes.md, entries 60 and 61).
TAIL_SPLIT_STEPS = 128


def reduction_steps(config: KernelConfig, N: int, K: int) -> int:
    """A forward or dX tile's steps along its reduction: cdiv(K, BLOCK_SIZE_K) in the forward, cdiv(N,
    BLOCK_SIZE_N) in dX (dX = dY · W[e] reduces over N)."""
    return triton.cdiv(K, config.BLOCK_SIZE_K) if config.mode == "fwd" else triton.cdiv(N, config.BLOCK_SIZE_N)


def splits_tails(config: KernelConfig, N: int, K: int) -> bool:
    """Whether a forward or dX config splits its merged tails on a problem of output size N and reduction size K
    (W's (N, K)): split_tail, over at least TAIL_SPLIT_STEPS reduction steps (reduction_steps)."""
    return getattr(config, "split_tail", False) and reduction_steps(config, N, K) >= TAIL_SPLIT_STEPS


def problem_size_rule(config: KernelConfig, problem: Problem) -> str | None:
    """A block larger than the next power of two of its dimension, or split_tail over a reduction too short to
    split (splits_tails): the first only computes padding, the second runs the same kernel as the config without
    split_tail."""
    if getattr(config, "split_tail", False) and not splits_tails(config, problem.N, problem.K):
        return (f"split_tail over {reduction_steps(config, problem.N, problem.K)} reduction steps (fewer than "
                f"{TAIL_SPLIT_STEPS}) runs the carried tail: the same kernel as without split_tail")
    dims = {"BLOCK_SIZE_M": problem.rows, "BLOCK_SIZE_N": problem.N, "BLOCK_SIZE_K": problem.K}
    for name, dim in dims.items():
        cap = max(16, triton.next_power_of_2(dim))
        if getattr(config, name) > cap:
            return f"{name} = {getattr(config, name)} exceeds the problem's {name[-1]} = {dim} (next power of two {cap})"
    split = getattr(config, "SPLIT_M", 1)
    if split > 1 and split * config.BLOCK_SIZE_M > max(16, triton.next_power_of_2(problem.rows)):
        return f"SPLIT_M·BLOCK_SIZE_M = {split * config.BLOCK_SIZE_M} exceeds the problem's M·topk = {problem.rows}"
    return None


Rule = Callable[[KernelConfig, Problem, DeviceProperties], "str | None"]
RULES: list[tuple[str, Rule]] = [
    ("mode", lambda c, p, d: mode_rule(c)),
    ("device", device_rule),
    ("tma_alignment", lambda c, p, d: tma_alignment_rule(c, p)),
    ("shared_memory", shared_memory_rule),
    ("registers", lambda c, p, d: register_rule(c)),
    ("problem_size", lambda c, p, d: problem_size_rule(c, p)),
]


def prune(
    configs: list[KernelConfig], problem: Problem, device: DeviceProperties
) -> tuple[list[KernelConfig], list[PrunedConfig]]:
    """Split configs into (kept, pruned) by RULES, in order; the first rule that fires names the reason."""
    kept, pruned = [], []
    for config in configs:
        for rule, check in RULES:
            reason = check(config, problem, device)
            if reason:
                pruned.append(PrunedConfig(config, rule, reason))
                break
        else:
            kept.append(config)
    return kept, pruned
