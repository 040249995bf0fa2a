"""The work each program of the strided persistent schedule gets, from the suite's routing (CPU only).

Run from the repository root: python results/h200/dynamic-schedule/static_balance.py
A tile costs 1, a half tile (half_tail: an expert's last block of at most BLOCK_SIZE_M/2 rows) 0.5; program p
takes tiles p, p + 132, … (132 SMs). balance = mean load / largest load, the share of the slowest program's
time the average SM is busy, if every tile of a cost took the same time.
"""
import math
import sys

sys.path.insert(0, ".")
from gemmtune.models import layer_problems, load_model  # noqa: E402

SMS = 132


def m_sizes(model, gemm, tokens, mode):
    problem = next(p for p in layer_problems(load_model(model), [tokens], [mode]) if p.gemm == gemm)
    return problem.make_routing().m_sizes.tolist()


def balance(sizes, out_cols, block_m, block_cols, half_tail):
    costs = []
    for m in sizes:
        for b in range(math.ceil(m / block_m)):
            half = half_tail and m - b * block_m <= block_m // 2
            costs += [0.5 if half else 1.0] * math.ceil(out_cols / block_cols)
    load = [0.0] * SMS
    for i, cost in enumerate(costs):
        load[i % SMS] += cost
    return len(costs), sum(costs) / SMS, max(load)


CASES = [  # model, gemm, tokens, mode, output columns, BLOCK_SIZE_M, output tile columns, half_tail
    ("mixtral-8x7b", "gate_up", 4096, "dx", 4096, 128, 256, True),
    ("mixtral-8x7b", "gate_up", 4096, "dx", 4096, 128, 256, False),
    ("mixtral-8x7b", "down", 4096, "dx", 14336, 128, 256, True),
    ("mixtral-8x7b", "gate_up", 16384, "dx", 4096, 128, 256, False),
    ("mixtral-8x7b", "down", 16384, "dx", 14336, 128, 256, False),
    ("mixtral-8x7b", "gate_up", 4096, "fwd", 28672, 128, 256, True),
    ("llama4-scout", "gate_up", 4096, "fwd", 16384, 128, 256, True),
    ("deepseek-v3", "gate_up", 16384, "fwd", 4096, 128, 256, False),
    ("llama4-scout", "gate_up", 16384, "fwd", 16384, 128, 256, False),
    ("mixtral-8x7b", "gate_up", 16384, "fwd", 28672, 128, 256, False),
]
for model, gemm, tokens, mode, cols, bm, bc, half in CASES:
    sizes = m_sizes(model, gemm, tokens, mode)
    n, mean, largest = balance(sizes, cols, bm, bc, half)
    print(f"{model} {gemm} {tokens} {mode} BM{bm} x{bc} half_tail={half}: {n} tiles, mean load {mean:.2f}, "
          f"largest {largest:.2f}, balance {mean / largest:.3f} (m_sizes {min(sizes)}-{max(sizes)})")
