"""The problem: one grouped GEMM of an MoE layer, its shape, routing and inputs.

E experts, M tokens each routed to `topk` experts (M·topk rows), weights W (E, N, K). The forward GEMM is
Y[rows of e] = X[rows of e] · W[e]ᵀ; dX and dW are its two gradients. `permute` says which side of the
GEMM is in token order: 'x' (first GEMM of the MLP: X gathered from token order on load) or 'y' (second
GEMM: Y scattered to token order on store).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

import torch

from gemmtune.routing import Routing, make_routing

DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}
PERMUTES = ("none", "x", "y")


class ProblemError(ValueError):
    """A malformed problem: bad shape, dtype, permutation or topk."""


def parse_shape(text: str) -> tuple[int, int, int, int]:
    """Parse 'E,M,N,K' into four positive ints. Raises ProblemError with the reason otherwise."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 4:
        raise ProblemError(f"--shape needs four numbers E,M,N,K, got {len(parts)} in {text!r}")
    values = []
    for name, part in zip("EMNK", parts):
        if not re.fullmatch(r"[+-]?\d+", part):
            raise ProblemError(f"--shape {text!r}: {name} = {part!r} is not a whole number")
        value = int(part)
        if value <= 0:
            raise ProblemError(f"--shape {text!r}: {name} must be positive, got {value}")
        values.append(value)
    return tuple(values)


@dataclass(frozen=True)
class Problem:
    """One grouped GEMM to tune.

    mode: 'fwd', 'dx' or 'dw'. E, M (tokens), N, K: the forward GEMM's sizes. gemm: a label such as
    'gate_up' or 'down' (free text; '' when unnamed). routing: see gemmtune.routing.make_routing.
    """

    mode: str
    E: int
    M: int
    N: int
    K: int
    topk: int = 1
    dtype: str = "bf16"
    permute: str = "none"
    routing: str = "uniform"
    seed: int = 0
    gemm: str = ""

    def __post_init__(self):
        for name in ("E", "M", "N", "K", "topk"):
            if getattr(self, name) <= 0:
                raise ProblemError(f"{name} must be positive, got {getattr(self, name)}")
        if self.dtype not in DTYPES:
            raise ProblemError(f"unknown dtype {self.dtype!r}: expected one of {', '.join(DTYPES)}")
        if self.permute not in PERMUTES:
            raise ProblemError(f"unknown permute {self.permute!r}: expected one of {', '.join(PERMUTES)}")
        if self.topk > self.E:
            raise ProblemError(f"topk ({self.topk}) cannot exceed the expert count E ({self.E})")

    @property
    def rows(self) -> int:
        """M·topk: rows of the grouped GEMM."""
        return self.M * self.topk

    @property
    def permute_x(self) -> bool:
        return self.permute == "x"

    @property
    def permute_y(self) -> bool:
        return self.permute == "y"

    @property
    def torch_dtype(self) -> torch.dtype:
        return DTYPES[self.dtype]

    @property
    def element_size(self) -> int:
        return self.torch_dtype.itemsize

    @property
    def flops(self) -> int:
        """2·(M·topk)·N·K: the same count for fwd, dX and dW (each is one product of those sizes)."""
        return 2 * self.rows * self.N * self.K

    @property
    def bytes_moved(self) -> int:
        """Fewest bytes each mode must move through device memory (each operand read once, output written once).

        fwd: X (M or M·topk rows of K) + W (E·N·K) + Y (M·topk·N); dX: dY + W + dX; dW: X + dY + dW (E·N·K).
        With permute_x the token-order X has M rows instead of M·topk.
        """
        x_rows = self.M if self.permute_x else self.rows
        w = self.E * self.N * self.K
        x = x_rows * self.K
        y = self.rows * self.N
        dx = self.rows * self.K
        elements = {"fwd": x + w + y, "dx": y + w + dx, "dw": x + y + w}[self.mode]
        return elements * self.element_size

    def describe(self) -> str:
        label = f"{self.gemm} " if self.gemm else ""
        return (
            f"{label}{self.mode} E={self.E} M={self.M} N={self.N} K={self.K} topk={self.topk} "
            f"{self.dtype} permute={self.permute} routing={self.routing}"
        )

    def to_dict(self) -> dict:
        return asdict(self)

    def make_routing(self) -> Routing:
        return make_routing(self.routing, self.E, self.M, self.topk, self.seed)


@dataclass
class Inputs:
    """The tensors of one problem, on one device.

    fwd: x (M, K) if permute_x else (M·topk, K); w (E, N, K); topk_weights (M·topk,) in token·topk order.
    dx:  dy (M·topk, N) (token order if permute_y, else sorted); w (E, N, K).
    dw:  x as in fwd; dy as in dx.
    m_sizes (E,) int32 and gather_indices (M·topk,) int32 come from the routing (gemmtune.routing).
    """

    m_sizes: torch.Tensor
    gather_indices: torch.Tensor
    x: torch.Tensor | None = None
    w: torch.Tensor | None = None
    dy: torch.Tensor | None = None
    topk_weights: torch.Tensor | None = None


def make_inputs(problem: Problem, device: str | torch.device, routing: Routing | None = None) -> Inputs:
    """Fresh random inputs for `problem`, drawn on `device` from a generator seeded by problem.seed.

    Scaled so outputs stay O(1): W ~ N(0, 1/K), dY ~ N(0, 1/N). Drawn directly in the problem's dtype on the
    device, so DeepSeek-V3's 7.5e9-element W needs no fp32 copy.
    """
    routing = (routing or problem.make_routing()).to(device)
    gen = torch.Generator(device=device).manual_seed(problem.seed + 1)
    dtype = problem.torch_dtype

    def randn(*shape, scale=1.0):
        return torch.randn(*shape, generator=gen, device=device, dtype=dtype).mul_(scale)

    E, N, K, rows = problem.E, problem.N, problem.K, problem.rows
    x_rows = problem.M if problem.permute_x else rows
    inputs = Inputs(m_sizes=routing.m_sizes, gather_indices=routing.gather_indices)
    if problem.mode in ("fwd", "dw"):
        inputs.x = randn(x_rows, K)
    if problem.mode in ("fwd", "dx"):
        inputs.w = randn(E, N, K, scale=K**-0.5)
    if problem.mode in ("dx", "dw"):
        inputs.dy = randn(rows, N, scale=N**-0.5)
    if problem.mode == "fwd":
        inputs.topk_weights = torch.rand(rows, generator=gen, device=device, dtype=torch.float32).to(dtype)
    return inputs
