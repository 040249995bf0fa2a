"""EXPERIMENT (entry 44): the Gluon forward / dX kernel's TMA store in subtiles through two buffers, so that it
fits beside 4 ring stages, against the shipped register store.

Per shape, one process, interleaved rounds (benchmarks/probe.py): the suite's best config as shipped (a register
store), the same config with use_tma_store in subtiles of 16 KB (8 KB with TAIL_ROWS, whose tail slots take
the other 16 KB), at 4 stages as well where the shipped config has 3, and the torch baselines. Every variant is
checked against the reference first.
Usage: python3 store_probe.py ROUNDS mode:model:gemm:tokens:config ...
"""
import dataclasses
import sys

sys.path.insert(0, "benchmarks")
import gemmtune  # noqa: F401
import torch

import probe
from gemmtune.kernels import Launcher, fwd_ws


def with_subtiles(launcher, subtile_bytes):
    def launch():
        fwd_ws.STORE_SUBTILE_BYTES = subtile_bytes
        try:
            return launcher()
        finally:
            fwd_ws.STORE_SUBTILE_BYTES = 0
    return launch


rounds = int(sys.argv[1])
print(probe.header(), flush=True)
for spec in sys.argv[2:]:
    problem, inputs, config = probe.shape(spec)
    print(f"{problem.describe()}  shipped: {config.to_string()}", flush=True)
    shipped = Launcher(problem, inputs, config)
    variants = [("shipped", shipped, shipped.out)]
    subtile_bytes = 8192 if config.TAIL_ROWS else 16384
    for stages in sorted({config.num_stages, 4}):
        launcher = Launcher(problem, inputs, dataclasses.replace(config, use_tma_store=True, num_stages=stages))
        variants.append((f"tma_subtiles_{subtile_bytes // 1024}k_s{stages}", with_subtiles(launcher, subtile_bytes),
                         launcher.out))
    probe.compare(problem, inputs, variants, rounds)
    del inputs, shipped, variants
    torch.cuda.empty_cache()
