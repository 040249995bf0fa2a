"""Shared memory of the Gluon forward kernel with and without dynamic_schedule, compiled for sm_90 on the
CPU machine (no GPU): 48 configs of deepseek-v3's gate_up at 16384 tokens, against pruning's prediction.

    PYTHONPATH=. python results/h200/ws-dynamic-schedule/smem_dynamic.py > results/h200/ws-dynamic-schedule/smem_dynamic.txt
"""
import dataclasses
import itertools
import os

os.environ["TRITON_INTERPRET"] = "0"
os.environ["GEMMTUNE_NUM_SMS"] = "132"
import gemmtune  # noqa: F401,E402  (first: settles the backend)
from gemmtune.config import KernelConfigForward  # noqa: E402
from gemmtune.engine.compile import _install_compile_only_driver, meta_inputs  # noqa: E402
from gemmtune.kernels import Launcher  # noqa: E402
from gemmtune.problem import Problem  # noqa: E402
from gemmtune.pruning import shared_memory_bytes  # noqa: E402

_install_compile_only_driver({"arch": 90, "warp_size": 32, "num_sms": 132})
problem = Problem("fwd", 256, 16384, 4096, 7168, 8, permute="x")
inputs = meta_inputs(problem)
tiles = [(128, 128), (128, 256), (256, 128)]
for (bm, bn), stages, tail, pregather, store in itertools.product(tiles, (3, 4), (0, 32), (True, False), (False, True)):
    static = KernelConfigForward(BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=64, num_warps=8, num_stages=stages,
                                 use_tma_load_w=True, use_tma_load_x=pregather, pregather=pregather, permute_x=True,
                                 warp_specialize=True, TAIL_ROWS=tail, use_tma_store=store)
    dynamic = dataclasses.replace(static, dynamic_schedule=True)
    a, b = (Launcher(problem, inputs, c).compile(load=False).metadata.shared for c in (static, dynamic))
    predicted = shared_memory_bytes(dynamic, 2)
    print(f"{dynamic.to_string():90s} static {a:7d} dynamic {b:7d} (+{b - a:3d}) predicted {predicted:7d}")
