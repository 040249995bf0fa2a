"""Torch references (fp32) and the torch baselines a user would otherwise run.

The reference computes each mode in fp32 from the problem's inputs, one expert at a time, so that a weight
of 7.5e9 bf16 elements never needs a full fp32 copy. The baselines compute the same function in the
problem's dtype with stock torch ops, permutation and topk-weight multiply included, so that the speedup
compares like with like:
- `torch_loop`: gather rows, one `torch.mm` per expert, scatter rows.
- `torch_grouped_mm`: gather rows, one `torch._grouped_mm` (cuBLAS/CUTLASS grouped GEMM), scatter rows.
"""

from __future__ import annotations

from typing import Callable

import torch

from gemmtune.problem import Inputs, Problem

# Relative Frobenius error ‖out − ref‖ / ‖ref‖ above which a kernel is `wrong`, per input dtype. bf16 and
# fp16 outputs are rounded to 8 and 11 mantissa bits; fp32 runs tl.dot in IEEE mode (no tf32).
TOLERANCE = {"fp32": 1e-4, "fp16": 5e-3, "bf16": 1.5e-2}


def _segments(m_sizes: torch.Tensor) -> list[tuple[int, int, int]]:
    """(expert, start, end) of each non-empty expert's rows; one host sync, done outside any timed region."""
    sizes = m_sizes.tolist()
    out, start = [], 0
    for e, size in enumerate(sizes):
        if size:
            out.append((e, start, start + size))
        start += size
    return out


def _sorted_x(problem: Problem, inputs: Inputs) -> torch.Tensor:
    """X in expert-sorted order (M·topk, K): gathered through gather_indices // topk with permute_x."""
    if problem.permute_x:
        return inputs.x.index_select(0, (inputs.gather_indices // problem.topk).long())
    return inputs.x


def _sorted_dy(problem: Problem, inputs: Inputs) -> torch.Tensor:
    """dY in expert-sorted order (M·topk, N): gathered through gather_indices with permute_y."""
    if problem.permute_y:
        return inputs.dy.index_select(0, inputs.gather_indices.long())
    return inputs.dy


def _to_token_order(sorted_rows: torch.Tensor, gather_indices: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(sorted_rows)
    out.index_copy_(0, gather_indices.long(), sorted_rows)
    return out


def reference(problem: Problem, inputs: Inputs, fuse_mul_post: bool = False) -> torch.Tensor:
    """The exact result of `problem.mode` in fp32.

    fwd → Y (M·topk, N), in token·topk order with permute_y (times topk_weights with fuse_mul_post).
    dx  → dX (M·topk, K), in token·topk order with permute_x (sum over topk for the token gradient).
    dw  → dW (E, N, K).
    """
    segments = _segments(inputs.m_sizes)
    if problem.mode == "fwd":
        x = _sorted_x(problem, inputs).float()
        y = torch.zeros(problem.rows, problem.N, device=x.device)
        for e, s, t in segments:
            y[s:t] = x[s:t] @ inputs.w[e].float().T
        if problem.permute_y:
            y = _to_token_order(y, inputs.gather_indices)
            if fuse_mul_post:
                y *= inputs.topk_weights.float()[:, None]
        return y
    if problem.mode == "dx":
        dy = _sorted_dy(problem, inputs).float()
        dx = torch.zeros(problem.rows, problem.K, device=dy.device)
        for e, s, t in segments:
            dx[s:t] = dy[s:t] @ inputs.w[e].float()
        return _to_token_order(dx, inputs.gather_indices) if problem.permute_x else dx
    if problem.mode == "dw":
        x = _sorted_x(problem, inputs).float()
        dy = _sorted_dy(problem, inputs).float()
        dw = torch.zeros(problem.E, problem.N, problem.K, device=x.device)
        for e, s, t in segments:
            dw[e] = dy[s:t].T @ x[s:t]
        return dw
    raise ValueError(f"unknown mode {problem.mode!r}")


def baselines(problem: Problem, inputs: Inputs, fuse_mul_post: bool = False) -> dict[str, Callable[[], torch.Tensor]]:
    """Zero-argument closures, by name, that compute `problem.mode` with stock torch ops in the input dtype.

    Setup (segment bounds, offsets) happens here, outside the closures, so timing them times only the work.
    `torch_grouped_mm` is left out where torch has no `_grouped_mm` for this device and dtype (it is
    tried once here; cuBLAS grouped GEMM needs bf16 on compute capability ≥ 9.0).
    """
    segments = _segments(inputs.m_sizes)
    offs = torch.cumsum(inputs.m_sizes, 0, dtype=torch.int32)
    gather = inputs.gather_indices.long()
    token_of_row = gather // problem.topk
    dtype = problem.torch_dtype
    E, N, K, rows = problem.E, problem.N, problem.K, problem.rows

    def gather_x():
        return inputs.x.index_select(0, token_of_row) if problem.permute_x else inputs.x

    def gather_dy():
        return inputs.dy.index_select(0, gather) if problem.permute_y else inputs.dy

    def finish_y(y):
        if problem.permute_y:
            y = _to_token_order(y, inputs.gather_indices)
            if fuse_mul_post:
                y.mul_(inputs.topk_weights[:, None])
        return y

    def finish_dx(dx):
        return _to_token_order(dx, inputs.gather_indices) if problem.permute_x else dx

    if problem.mode == "fwd":

        def loop():
            x = gather_x()
            y = torch.empty(rows, N, dtype=dtype, device=x.device)
            for e, s, t in segments:
                torch.mm(x[s:t], inputs.w[e].T, out=y[s:t])
            return finish_y(y)

        def grouped():
            return finish_y(torch._grouped_mm(gather_x(), inputs.w.transpose(-2, -1), offs=offs))

    elif problem.mode == "dx":

        def loop():
            dy = gather_dy()
            dx = torch.empty(rows, K, dtype=dtype, device=dy.device)
            for e, s, t in segments:
                torch.mm(dy[s:t], inputs.w[e], out=dx[s:t])
            return finish_dx(dx)

        def grouped():
            return finish_dx(torch._grouped_mm(gather_dy(), inputs.w, offs=offs))

    elif problem.mode == "dw":

        def loop():
            x, dy = gather_x(), gather_dy()
            dw = torch.zeros(E, N, K, dtype=dtype, device=x.device)
            for e, s, t in segments:
                torch.mm(dy[s:t].T, x[s:t], out=dw[e])
            return dw

        def grouped():
            return torch._grouped_mm(gather_dy().T, gather_x(), offs=offs)

    else:
        raise ValueError(f"unknown mode {problem.mode!r}")

    found = {"torch_loop": loop}
    if _grouped_mm_works(grouped, inputs):
        found["torch_grouped_mm"] = grouped
    return found


def _grouped_mm_works(fn: Callable[[], torch.Tensor], inputs: Inputs) -> bool:
    if not hasattr(torch, "_grouped_mm") or inputs.m_sizes.device.type != "cuda":
        return False
    try:
        fn()
        torch.cuda.synchronize()
        return True
    except (RuntimeError, TypeError, NotImplementedError):
        return False


def relative_error(out: torch.Tensor, ref: torch.Tensor) -> float:
    """‖out − ref‖_F / ‖ref‖_F in fp32, computed in chunks of rows to bound memory; NaN if out has NaN/inf."""
    num = torch.zeros((), dtype=torch.float64, device=ref.device)
    den = torch.zeros((), dtype=torch.float64, device=ref.device)
    flat_out, flat_ref = out.reshape(-1, out.shape[-1]), ref.reshape(-1, ref.shape[-1])
    step = max(1, (1 << 26) // max(1, flat_ref.shape[-1]))
    for i in range(0, flat_ref.shape[0], step):
        o, r = flat_out[i : i + step].float(), flat_ref[i : i + step].float()
        if not torch.isfinite(o).all():
            return float("nan")
        num += (o - r).double().pow(2).sum()
        den += r.double().pow(2).sum()
    if den == 0:
        return 0.0 if num == 0 else float("inf")
    return float((num / den).sqrt())
