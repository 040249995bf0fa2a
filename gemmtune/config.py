"""Kernel configurations: the tuning knobs of each mode's Triton grouped-GEMM kernel.

One frozen dataclass per mode. Field names follow Triton's convention: constexpr meta-parameters in
UPPER_CASE (BLOCK_SIZE_M, GROUP_SIZE_M), launch options in lower case (num_warps, num_stages).

Dimension names are the forward problem's: M rows (tokens·topk), N output features, K reduction
features. Each mode tiles the same three dimensions, so BLOCK_SIZE_K is always the block along K:
- fwd: Y (M·topk, N) = X (M·topk, K) · W[e]ᵀ, reduction over K.
- dX:  dX (M·topk, K) = dY (M·topk, N) · W[e], reduction over N.
- dW:  dW[e] (N, K) = dY[rows of e]ᵀ · X[rows of e], reduction over M.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

MODES = ("fwd", "dx", "dw")


@dataclass(frozen=True)
class KernelConfig:
    """Knobs shared by every mode.

    permute_x: X rows are gathered through gather_indices (fwd, dW: on load of X; dX: dX is scattered on
    store). permute_y: Y rows are scattered through gather_indices (fwd: on store; dX, dW: dY is gathered
    on load). fuse_mul_post scales each output row by its topk weight (fwd with permute_y only).
    Block sizes are powers of two, except the output block's columns (fwd BLOCK_SIZE_N, dX BLOCK_SIZE_K) in
    the Gluon forward and dX kernel, which may be 192, 320 or 384 (gemmtune.pruning.block_shape_rule).
    GROUP_SIZE_M groups tiles along M so that consecutive programs share W tiles in L2.
    flatten is passed to `tl.range(...)` of the persistent tile loop: it lets the pipeliner overlap one
    tile's epilogue with the next tile's loads. warp_specialize puts loads and MMAs in separate warps: on
    Hopper (compute capability 9.x) the forward and dW passes then run the Gluon kernels of
    gemmtune.kernels.fwd_ws and dw_ws (a TMA loader warp and one or two wgmma warpgroups); from 10.0 it is
    `tl.range(warp_specialize=True)`.
    pregather: the operand that the problem gathers on load (fwd: X under permute_x; dX: dY under permute_y;
    dW: X under permute_x or dY under permute_y) is copied once into expert order before the kernel
    (gemmtune.kernels.pregather: each token's row read once, rows·K or rows·N elements written; part of
    the timed call), so that the kernel reads whole tiles of it with TMA; the pruning rules require that
    operand's TMA flag with it. For the Gluon dW kernel the copy also pads each expert to whole BLOCK_SIZE_M
    blocks of zero rows (gemmtune.kernels.padded_gather).
    """

    BLOCK_SIZE_M: int = 64
    BLOCK_SIZE_N: int = 128
    BLOCK_SIZE_K: int = 64
    GROUP_SIZE_M: int = 8
    num_warps: int = 4
    num_stages: int = 3
    flatten: bool = False
    warp_specialize: bool = False
    permute_x: bool = False
    permute_y: bool = False
    fuse_mul_post: bool = False
    use_tma_store: bool = False
    pregather: bool = False

    mode: ClassVar[str] = ""

    def to_string(self) -> str:
        """A compact one-line form, e.g. `fwd BM64 BN128 BK64 G8 w4 s3 tma[w]` (the permutation is the problem's)."""
        parts = [
            self.mode,
            f"BM{self.BLOCK_SIZE_M}",
            f"BN{self.BLOCK_SIZE_N}",
            f"BK{self.BLOCK_SIZE_K}",
            f"G{self.GROUP_SIZE_M}",
            f"w{self.num_warps}",
            f"s{self.num_stages}",
        ]
        if getattr(self, "SPLIT_M", 1) != 1:
            parts.append(f"split{self.SPLIT_M}")
        if getattr(self, "TAIL_ROWS", 0):
            parts.append(f"tail{self.TAIL_ROWS}")
        tma = [name.removeprefix("use_tma_load_") for name in self.tma_load_fields() if getattr(self, name)]
        if self.use_tma_store:
            tma.append("store")
        if tma:
            parts.append(f"tma[{','.join(tma)}]")
        flags = ("pregather", "half_tail", "dynamic_schedule", "split_tail", "column_tail", "flatten",
                 "warp_specialize", "fuse_mul_post")
        flags = [name for name in flags if getattr(self, name, False)]
        return " ".join(parts + flags)

    def to_dict(self) -> dict:
        """Every field by name, in declaration order."""
        return dataclasses.asdict(self)

    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls)]

    @classmethod
    def tma_load_fields(cls) -> list[str]:
        return [name for name in cls.field_names() if name.startswith("use_tma_load_")]

    @property
    def uses_tma(self) -> bool:
        return self.use_tma_store or any(getattr(self, name) for name in self.tma_load_fields())


@dataclass(frozen=True)
class KernelConfigForward(KernelConfig):
    """Forward: Y = X · W[e]ᵀ. TMA may load W (E, N, K) and X (M·topk, K; when gathered, only with pregather).

    half_tail: an expert's last M block that holds at most BLOCK_SIZE_M/2 rows runs as a tile of
    BLOCK_SIZE_M/2 rows instead of a padded full one. With ragged experts the padding is large: at 4096 tokens
    Llama-4-Scout's 16 experts get about 256 ± 16 rows each, so 128-row tiles compute 20 % padding rows,
    half tails 11 % (gemmtune.routing, uniform). Needs BLOCK_SIZE_M ≥ 32 (a half tile has at least tl.dot's 16
    rows) and is pruned with flatten. Measured on the H200 suite: within ±2 % of the best config without it on
    most shapes (docs/perf-notes.md, entry 7), so it is off in the shipped spaces.

    TAIL_ROWS (warp_specialize on Hopper only; 0 = off): an expert's last partial M block of at most
    TAIL_ROWS rows is computed by the tile of the full block before it, as Yᵀ = W · X_tailᵀ with the tail's
    rows on the wgmma's N side (a power of two from 8: PTX ISA wgmma shapes m64nNk16, Gluon tensor shapes).
    The W tiles that tile streams anyway feed both MMAs, so a 12-row tail costs a BLOCK_SIZE_N×TAIL_ROWS MMA
    per K step instead of a second pass over W[e] at full tile height. Measured on the H200: it pays with
    256-row tiles on experts of about 256 rows, and loses up to 17 % elsewhere (docs/perf-notes.md, entry 15).

    dynamic_schedule (warp_specialize on Hopper only): program p computes tile p first and then whichever tile an
    atomic counter hands it next, in tile order, instead of every NUM_SMS-th tile. Tiles of unequal cost
    (merged tails) then cannot pull the programs apart, so the tiles that share a W tile still run together
    and read it from L2 (docs/perf-notes.md, entry 37).

    split_tail (with TAIL_ROWS): on a reduction of at least gemmtune.pruning.TAIL_SPLIT_STEPS (128) K steps, an
    expert's merged tail is computed by all of its M blocks' tiles in a column, each over an even share of the K
    steps, instead of by the last block's tile alone; the shares are added into fp32 sums in global memory
    (E·TAIL_ROWS·N floats, zeroed by each launch) and the last tile to finish stores them. A tile that carries a
    whole tail runs about a third slower per K step and, on long reductions, falls behind the tiles that share its
    W columns until it reads them from DRAM again; split, the tiles keep step. Measured on the H200 against the
    carried tail: 1.00× at 112 K steps, 1.01-1.02× at 128-224, 1.02-1.10× at 256-448, and 0.94-0.97× at 24-64,
    where the launch therefore runs the carried tail's kernel and pruning drops the config as that one
    (docs/perf-notes.md, entries 60 and 61). Split, the tail's rows are not bitwise reproducible (fp32 adds in
    arrival order).

    column_tail (with TAIL_ROWS, not with split_tail; output blocks of at least 128 columns): an expert's merged
    tail is computed by the tiles of its last two M blocks in a column, each over half of the block's columns,
    instead of by the last block's tile over all of them (an expert of one full block still carries it whole).
    The two tiles then do equal work, keep step and read their shared W block together, as a carried tail's
    tiles do not, and each tail wgmma multiplies half of W's slabs. Measured on the H200 (llama4-scout's gate_up
    at 4096 tokens, 256 ± 16 rows per expert, 128×256 tiles): 1.035-1.046× the suite's best 256×128 config in
    interleaved timing, 1.016× under sustained load; 0.99-1.01× on shapes whose experts have 8-32 M blocks
    (docs/perf-notes.md, entry 69).
    """

    use_tma_load_w: bool = False
    use_tma_load_x: bool = False
    half_tail: bool = False
    TAIL_ROWS: int = 0
    dynamic_schedule: bool = False
    split_tail: bool = False
    column_tail: bool = False

    mode: ClassVar[str] = "fwd"


@dataclass(frozen=True)
class KernelConfigBackward_dX(KernelConfig):
    """dX = dY · W[e]. TMA may load dY (M·topk, N; when gathered, only with pregather) and W (E, N, K).

    half_tail: as in KernelConfigForward (dX tiles M the same way).

    warp_specialize on Hopper runs the Gluon forward kernel with W[e]'s roles swapped (N the reduction, K the
    output columns: gemmtune.kernels.fwd_ws.launch_ws), with its TAIL_ROWS, dynamic_schedule, split_tail and
    column_tail as in KernelConfigForward; its loader may gather dY's rows under permute_y instead of pregather.
    """

    use_tma_load_dy: bool = False
    use_tma_load_w: bool = False
    half_tail: bool = False
    TAIL_ROWS: int = 0
    dynamic_schedule: bool = False
    split_tail: bool = False
    column_tail: bool = False

    mode: ClassVar[str] = "dx"


@dataclass(frozen=True)
class KernelConfigBackward_dW(KernelConfig):
    """dW[e] = dY[rows of e]ᵀ · X[rows of e]. TMA may load dY and X (a gathered one only with pregather).

    SPLIT_M > 1 splits each expert's rows over that many programs that add their fp32 partial sums
    atomically: more parallelism when E·(N/BLOCK_SIZE_N)·(K/BLOCK_SIZE_K) tiles cannot fill the GPU.
    """

    use_tma_load_dy: bool = False
    use_tma_load_x: bool = False
    SPLIT_M: int = 1

    mode: ClassVar[str] = "dw"


CONFIG_CLASSES: dict[str, type[KernelConfig]] = {
    "fwd": KernelConfigForward,
    "dx": KernelConfigBackward_dX,
    "dw": KernelConfigBackward_dW,
}


def config_class(mode: str) -> type[KernelConfig]:
    """The config dataclass of `mode` ('fwd', 'dx' or 'dw'). Raises ValueError for another mode."""
    try:
        return CONFIG_CLASSES[mode]
    except KeyError:
        raise ValueError(f"unknown mode {mode!r}: expected one of {', '.join(MODES)}") from None


def config_from_dict(mode: str, values: dict) -> KernelConfig:
    """Rebuild a mode's config from a row or dict; keys that are not fields of that mode are ignored.

    Values are coerced to each field's type (a Parquet column holding NaN for other modes reads back an
    int such as SPLIT_M as the float 2.0, which must become 2 again).
    """
    cls = config_class(mode)
    defaults = {f.name: f.default for f in dataclasses.fields(cls)}
    return cls(**{k: _coerce(_plain(v), defaults[k]) for k, v in values.items() if k in defaults})


def _plain(value):
    """numpy/pandas scalars back to Python ints and bools, so configs hash and compare as written."""
    return value.item() if hasattr(value, "item") else value


def _coerce(value, default):
    """An integral float to int for an int field, 0/1 to bool for a bool field; anything else unchanged."""
    if isinstance(default, bool):
        return bool(value) if isinstance(value, (int, float)) and value in (0, 1) else value
    if isinstance(default, int) and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def parse_modes(text: str) -> list[str]:
    """'fwd', 'dX', 'fwd,dx,dw' → canonical mode names, in order, without repeats. Raises ValueError."""
    modes = [part.strip().lower() for part in text.split(",") if part.strip()]
    if not modes:
        raise ValueError("--mode needs at least one of fwd, dx, dw")
    for mode in modes:
        config_class(mode)
    return list(dict.fromkeys(modes))
