"""The strided persistent schedule, simulated per tile from the suite's routing (CPU only).

Run from the repository root: python results/h200/rotated-tail-carrier/schedule_model.py [HALF_COST]
Program p takes tiles p, p + 132, … in flat order, each for its cost: 1 for a tile, HALF_COST (default 0.8)
for a half tile, 1 + TAIL_ROWS/128 for a tile that carries a merged tail. Per configuration it prints the
makespan (the busiest program's load, in tiles), its mean, and the share of (expert, column, M group)
sets whose tiles start more than one tile apart ("desync"), for the merged tail carried by the last block
of each column ("last", entry 25) or by a block that rotates with the column ("rotate", entry 27).
"""
import math, sys
sys.path.insert(0, ".")
from gemmtune.models import layer_problems, load_model

SMS = 132

def m_sizes(model, gemm, tokens, mode="fwd"):
    p = next(p for p in layer_problems(load_model(model), [tokens], [mode]) if p.gemm == gemm)
    return p.make_routing().m_sizes.tolist(), p

def tiles(sizes, ncols, bm, G, half_tail, tail_rows, carrier, half_cost, tail_cost):
    out = []  # (cost, column key)
    for e, m in enumerate(sizes):
        blocks = math.ceil(m / bm)
        tail = m % bm
        merged = tail_rows and 0 < tail <= tail_rows and m > bm
        if merged:
            blocks -= 1
        last_first = ((blocks - 1) // G) * G
        last_rows = blocks - last_first
        width = G * ncols
        for local in range(blocks * ncols):
            first = (local // width) * G
            grows = min(blocks - first, G)
            pid_m = first + (local % width) % grows
            pid_n = (local % width) // grows
            cost = 1.0
            if half_tail and m - pid_m * bm <= bm // 2:
                cost = half_cost
            if merged:
                c = blocks - 1 if carrier == "last" else last_first + pid_n % last_rows
                if pid_m == c:
                    cost = 1.0 + tail_cost * tail / bm if tail_cost else 1.0 + tail_rows / bm
            out.append((cost, (e, pid_n, first)))
    return out

def simulate(ts):
    clock = [0.0] * SMS
    starts = {}
    for i, (cost, key) in enumerate(ts):
        p = i % SMS
        starts.setdefault(key, []).append(clock[p])
        clock[p] += cost
    spreads = [max(v) - min(v) for v in starts.values()]
    return max(clock), sum(clock) / SMS, sum(s > 1.0 for s in spreads) / len(spreads), max(spreads)

CASES = [("mixtral-8x7b", "gate_up", 4096, 28672), ("mixtral-8x7b", "gate_up", 16384, 28672),
         ("llama4-scout", "gate_up", 4096, 16384), ("llama4-scout", "gate_up", 16384, 16384),
         ("deepseek-v3", "gate_up", 16384, 4096), ("mixtral-8x7b", "down", 4096, 4096)]
half_cost = float(sys.argv[1]) if len(sys.argv) > 1 else 0.8
for model, gemm, tokens, N in CASES:
    sizes, p = m_sizes(model, gemm, tokens)
    ncols = math.ceil(p.N / 256)
    base = simulate(tiles(sizes, ncols, 128, 8, True, 0, "last", half_cost, 0))
    print(f"{model} {gemm} {tokens} N={p.N}: half_tail makespan {base[0]:.1f} (mean {base[1]:.1f}), desync {base[2]:.3f} max {base[3]:.1f}")
    for tr in (16, 32):
        for carrier in ("last", "rotate"):
            r = simulate(tiles(sizes, ncols, 128, 8, True, tr, carrier, half_cost, 0))
            print(f"   TAIL{tr} {carrier:6s}: makespan {r[0]:.1f} (mean {r[1]:.1f}) speedup {base[0]/r[0]:.3f}, desync {r[2]:.3f} max {r[3]:.1f}")
