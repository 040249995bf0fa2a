"""EXPERIMENT (entry 49): the compute ceiling and the torch baselines measured in the run, beside the anchors'.

The issue's compute-bound goal is 85 % of 806 TF/s, the 8192³ bf16 torch.mm of ../shared/h200-anchors.md. The same
file puts the torch per-expert loop of mixtral-8x7b's gate_up at 4096 tokens at 768 TF/s, where the suite's
re-time measured 635 TF/s for it. This probe measures, in one process on the suite's configs of the eight
compute-bound forward shapes (mixtral-8x7b and llama4-scout, both GEMMs, 4096 and 16384 tokens):

1. cold: the 8192³ torch.mm alone, first thing (do_bench at its defaults, L2 flushed: the anchors' method);
2. alone: per shape, torch's loop, torch._grouped_mm and our config each timed alone, one after another;
3. interleaved: per shape, the same three and the 8192³ torch.mm in ROUNDS interleaved rounds (the suite's
   re-time), so each shape's share of the dense GEMM's rate comes from the same rounds;
4. hot: the 8192³ torch.mm alone again, then each alone-timing of the first shape again.

Every config is checked against the reference first. nvidia-smi is sampled throughout (SM clock, power);
each alone-timing prints the median of the samples taken during it.
Usage: python3 ceiling_probe.py ROUNDS
"""
import statistics
import sys
import time

sys.path.insert(0, "benchmarks")
import gemmtune  # noqa: F401
import torch

import probe
from gemmtune.kernels import Launcher
from gemmtune.problem import make_inputs
from gemmtune.reference import baselines, reference
from gemmtune.runner import check_output, time_samples
from ncu_probe import time_interleaved
from power_probe import Sampler
from retime_again import rows_of

ROUNDS = int(sys.argv[1])
SUITE = {  # (model, gemm, M): the suite's forward config (results/h200/suite.parquet)
    ("mixtral-8x7b", "gate_up", 4096): "fwd BM128 BN256 BK64 G8 w8 s4 tail32 tma[w,x] pregather dynamic_schedule warp_specialize",
    ("mixtral-8x7b", "gate_up", 16384): "fwd BM128 BN256 BK64 G8 w8 s3 tma[w,x] pregather half_tail",
    ("mixtral-8x7b", "down", 4096): "fwd BM128 BN256 BK64 G8 w8 s4 tma[w,x] half_tail",
    ("mixtral-8x7b", "down", 16384): "fwd BM128 BN256 BK64 G8 w8 s3 tma[w,x]",
    ("llama4-scout", "gate_up", 4096): "fwd BM256 BN128 BK64 G8 w8 s4 tail32 tma[w,x] pregather dynamic_schedule warp_specialize",
    ("llama4-scout", "gate_up", 16384): "fwd BM128 BN256 BK64 G8 w8 s4 tma[w,x] pregather dynamic_schedule warp_specialize",
    ("llama4-scout", "down", 4096): "fwd BM256 BN128 BK64 G8 w8 s4 tail32 tma[w,x] warp_specialize",
    ("llama4-scout", "down", 16384): "fwd BM128 BN256 BK64 G8 w8 s3 tma[w,x]",
}
DENSE = 8192
DENSE_FLOPS = 2 * DENSE**3
sampler = Sampler()


def alone(label, fn, flops):
    """do_bench at its defaults (warmup 25 ms, rep 100 ms, L2 flushed), nothing else running; one line."""
    start = time.time()
    ms = statistics.median(time_samples(fn, "do_bench", 25, 100))
    clock, power, count = sampler.window(start, time.time())
    print(f"  alone {label:42s} {ms:8.4f} ms {flops / ms / 1e9:7.1f} TF/s  {clock:5.0f} MHz {power:4.0f} W "
          f"({count} samples)", flush=True)
    return ms


def main():
    print(probe.header(), flush=True)
    sampler.start()
    a = torch.randn(DENSE, DENSE, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(DENSE, DENSE, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(DENSE, DENSE, device="cuda", dtype=torch.bfloat16)
    dense = lambda: torch.mm(a, b, out=c)  # noqa: E731
    print("\n1. cold", flush=True)
    alone("torch.mm 8192^3", dense, DENSE_FLOPS)

    print("\n2-3. per shape: alone, then interleaved with the 8192^3 torch.mm", flush=True)
    first = None
    for (model, gemm, M), text in SUITE.items():
        path = f"results/h200/{model}_fwd_M4096-16384_uniform_bf16.parquet"
        result = rows_of(path, "fwd", gemm, M, [text])[0]
        problem = result.problem
        inputs = make_inputs(problem, "cuda")
        launcher = Launcher(problem, inputs, result.kernel_config)
        checked = check_output(launcher, launcher.out, reference(problem, inputs), problem.dtype)
        print(f"\n{problem.describe()}\n  {text}: check {checked.status} (rel err {checked.rel_err:.2e})", flush=True)
        named = [("ours", launcher), *baselines(problem, inputs).items()]
        for name, fn in named:
            alone(name, fn, problem.flops)
        timings = time_interleaved(problem, [*named, ("torch.mm 8192^3", dense)], ROUNDS)
        dense_ms = timings[-1]["median_ms"]
        ours_tf = problem.flops / timings[0]["median_ms"] / 1e9
        dense_tf = DENSE_FLOPS / dense_ms / 1e9
        print(f"  interleaved: 8192^3 torch.mm {dense_tf:.1f} TF/s; ours {ours_tf:.1f} TF/s = "
              f"{100 * ours_tf / dense_tf:.1f} % of it, {100 * ours_tf / 806:.1f} % of 806", flush=True)
        first = first or (named, problem.flops)

    print("\n4. hot", flush=True)
    alone("torch.mm 8192^3", dense, DENSE_FLOPS)
    named, flops = first
    for name, fn in named:
        alone(f"first shape: {name}", fn, flops)
    sampler.stop()


if __name__ == "__main__":
    main()
