"""EXPERIMENT (entry 44): the Gluon dW kernel's padded gather reading each token's row once (pregather's
token-major copy, the rows written at their padded positions) against the gather in expert order it replaces.

Per shape, one process, interleaved rounds (benchmarks/probe.py): the suite's best dW config with the new
padded gather, the same config with the old one (gemmtune/kernels/padded_gather.py at 5e71d0b, loaded from
OLD_MODULE), and the torch baselines, every variant checked against the reference first; then the two copies
alone, checked equal on every row the layout defines.
Usage: python3 padded_probe.py OLD_MODULE ROUNDS mode:model:gemm:tokens:config ...
"""
import importlib.util
import sys

sys.path.insert(0, "benchmarks")
import gemmtune  # noqa: F401
import torch

import probe
from gemmtune.engine.retime import retime_interleaved
from gemmtune.kernels import Launcher
from gemmtune.kernels import dw as dw_module

spec = importlib.util.spec_from_file_location("old_padded_gather", sys.argv[1])
old = importlib.util.module_from_spec(spec)
spec.loader.exec_module(old)
new_gather = dw_module.gather_rows_padded


def with_gather(launcher, gather):
    def launch():
        dw_module.gather_rows_padded = gather
        try:
            return launcher()
        finally:
            dw_module.gather_rows_padded = new_gather
    return launch


rounds = int(sys.argv[2])
print(probe.header(), flush=True)
for text in sys.argv[3:]:
    problem, inputs, config = probe.shape(text)
    print(f"{problem.describe()}  {config.to_string()}", flush=True)
    shipped = Launcher(problem, inputs, config)
    before = Launcher(problem, inputs, config)
    probe.compare(problem, inputs, [("token_major", shipped, shipped.out),
                                    ("expert_order", with_gather(before, old.gather_rows_padded), before.out)], rounds)
    # The copies alone: X under permute_x (gate_up), dY under permute_y (down).
    src, topk = (inputs.x, problem.topk) if problem.permute_x else (inputs.dy, 1)
    args = (src, inputs.gather_indices, inputs.m_sizes, topk, config.BLOCK_SIZE_M)
    blocks = int((-(-inputs.m_sizes // config.BLOCK_SIZE_M)).sum()) * config.BLOCK_SIZE_M
    same = torch.equal(new_gather(*args)[:blocks], old.gather_rows_padded(*args)[:blocks])
    t_new, t_old = retime_interleaved([lambda: new_gather(*args), lambda: old.gather_rows_padded(*args)], "do_bench",
                                      rounds, 25, 100)
    print(f"  copy alone ({src.shape[0]}x{src.shape[1]}, topk {topk}, {blocks} padded rows): equal {same}; "
          f"token_major {t_new['median_ms']:.4f} ms, expert_order {t_old['median_ms']:.4f} ms, "
          f"expert_order/token_major {t_old['median_ms'] / t_new['median_ms']:.3f}", flush=True)
    del inputs, shipped, before
    torch.cuda.empty_cache()
