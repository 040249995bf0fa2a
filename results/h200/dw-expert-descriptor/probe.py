"""TEMPORARY: dW Gluon kernel, smem zeroing (HEAD) against a per-tile expert descriptor for dY (working tree)."""
import sys
sys.path.insert(0, "benchmarks")
import gemmtune  # noqa
import torch, triton
from ncu_probe import parse_config
from gemmtune.models import layer_problems, load_model
from gemmtune.problem import make_inputs
from gemmtune.kernels import Launcher
from gemmtune.kernels.common import gather_rows
from gemmtune.reference import baselines, reference
from gemmtune.runner import check_output
from gemmtune.engine.retime import retime_interleaved
import dw_ws_zeroing

BASE = "BLOCK_SIZE_M=64,BLOCK_SIZE_N=128,BLOCK_SIZE_K=256,num_warps=8,num_stages=3,use_tma_load_dy=1,use_tma_load_x=1,use_tma_store=1,pregather=1,warp_specialize=1"
SHAPES = [("llama4-scout", "gate_up", 4096, 8), ("llama4-scout", "down", 4096, 8), ("mixtral-8x7b", "down", 4096, 32),
          ("llama4-scout", "down", 16384, 32), ("deepseek-v3", "gate_up", 4096, 32), ("deepseek-v3", "down", 4096, 16)]

for model, gemm, tokens, group in SHAPES:
    problem = next(p for p in layer_problems(load_model(model), [tokens], ["dw"]) if p.gemm == gemm)
    inputs = make_inputs(problem, "cuda")
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}: {problem.describe()}", flush=True)
    config = parse_config(problem, BASE + f",GROUP_SIZE_M={group}")
    new = Launcher(problem, inputs, config)
    out = torch.empty_like(new.out)
    gi, topk = inputs.gather_indices, problem.topk
    def old():
        x, dy = inputs.x, inputs.dy
        if problem.permute_x:
            x = gather_rows(x, gi, topk)
        else:
            dy = gather_rows(dy, gi)
        dw_ws_zeroing.launch_dw_ws(x, dy, out, inputs.m_sizes, config, False)
        return out
    ref = reference(problem, inputs)
    for name, fn, o in (("zeroing", old, out), ("expert descriptor", new, new.out)):
        print(f"  check {name}: {check_output(fn, o, ref, problem.dtype)}", flush=True)
    named = [("zeroing " + config.to_string(), old), ("expert descriptor", new)] + list(baselines(problem, inputs).items())
    timings = retime_interleaved([f for _, f in named], "do_bench", 6, 25, 100)
    for (name, _), t in zip(named, timings):
        if "error" in t:
            print(f"  {name:80s} error {t['error']}"); continue
        print(f"  {name:80s} {t['median_ms']:.4f} ms {problem.flops / t['median_ms'] / 1e9:7.1f} TF/s (p20-p80 {t['p20_ms']:.4f}-{t['p80_ms']:.4f})", flush=True)
