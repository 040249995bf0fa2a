"""GPU check of the kernels: correctness on edge shapes, predicted vs reported shared memory, a first timing.

Run on the GPU machine: python benchmarks/gpu_check.py --out DIR [--modes fwd,dx,dw]
Writes DIR/smem.csv (predicted vs Triton-reported shared memory per config of the default space),
DIR/correctness.csv and DIR/timing.csv, and prints short tables.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import multiprocessing as mp
import time
from pathlib import Path

import pandas as pd
import torch

import gemmtune  # noqa: F401  (backend first)
from gemmtune.config import config_class
from gemmtune.device import active_device
from gemmtune.kernels import Launcher
from gemmtune.engine.compile import meta_inputs
from gemmtune.problem import Problem, make_inputs
from gemmtune.pruning import MAX_REGISTERS_PER_THREAD, shared_memory_bytes
from gemmtune.reference import baselines, reference
from gemmtune.runner import check_output, classify, time_callable
from gemmtune.space import enumerate_configs, load_space


def compile_one(args):
    problem, config = args
    try:
        compiled = Launcher(problem, meta_inputs(problem), config).compile()
        return config.to_dict(), compiled.metadata.shared, compiled.n_regs, compiled.n_spills, ""
    except Exception as exc:  # noqa: BLE001  (recorded)
        return config.to_dict(), None, None, None, classify(exc)[1]


def smem_calibration(problems, out: Path) -> None:
    space = load_space("default").with_overrides({"use_tma_store": [False, True]})
    jobs = [(p, c) for p in problems for c in enumerate_configs(space, p)]
    t0 = time.time()
    rows = []
    with cf.ProcessPoolExecutor(16, mp_context=mp.get_context("spawn")) as pool:
        for (p, _), (cfg, shared, regs, spills, err) in zip(jobs, pool.map(compile_one, jobs, chunksize=2)):
            cls = config_class(p.mode)
            c = cls(**cfg)
            rows.append(
                dict(mode=p.mode, N=p.N, K=p.K, permute=p.permute, config=c.to_string(), predicted=shared_memory_bytes(c, 2),
                     reported=shared, n_regs=regs, n_spills=spills, error=err)
            )
    df = pd.DataFrame(rows)
    df.to_csv(out / "smem.csv", index=False)
    ok = df[df.reported.notna()]
    under = ok[ok.predicted < ok.reported]
    print(f"compiled {len(df)} configs in {time.time() - t0:.1f} s; {len(ok)} ok; errors: {df.error.ne('').sum()}")
    print(f"predicted < reported in {len(under)} configs; ratio reported/predicted: "
          f"min {(ok.reported / ok.predicted).min():.3f} max {(ok.reported / ok.predicted).max():.3f}")
    if len(under):
        print(under.head(20).to_string())
    print(df[df.error.ne("")].groupby("error").size().head(10).to_string())


def check(problem: Problem, config, label: str) -> dict:
    inputs = make_inputs(problem, "cuda")
    ref = reference(problem, inputs, config.fuse_mul_post)
    try:
        launcher = Launcher(problem, inputs, config)
        checked = check_output(launcher, launcher.out, ref, problem.dtype)
        status, err, rel = checked.status, checked.error, checked.rel_err
    except Exception as exc:  # noqa: BLE001
        status, err = classify(exc)
        rel = None
    del inputs, ref
    torch.cuda.empty_cache()
    return dict(case=label, problem=problem.describe(), config=config.to_string(), status=status, rel_err=rel, error=err)


def correctness(modes) -> pd.DataFrame:
    rows = []
    for mode in modes:
        cls = config_class(mode)
        tma = {"fwd": dict(use_tma_load_w=True), "dx": dict(use_tma_load_w=True), "dw": dict(use_tma_load_dy=True)}[mode]
        cases = [
            ("ragged, empty experts (E > tokens)", Problem(mode, 64, 16, 192, 160, 2, routing="zipf:1.5", seed=1), {}),
            ("N, K not multiples of the block", Problem(mode, 8, 300, 200, 136, 2, permute="x"), {}),
            ("gpt-oss K=2880 with BLOCK_SIZE_K=128", Problem(mode, 32, 512, 5760, 2880, 4, permute="x"), dict(BLOCK_SIZE_K=128)),
            ("permute_y", Problem(mode, 32, 512, 2880, 2880, 4, permute="y"), {}),
            ("TMA", Problem(mode, 16, 1024, 1024, 512, 2), tma),
            ("fp32", Problem(mode, 8, 256, 192, 160, 2, dtype="fp32", permute="x"), dict(BLOCK_SIZE_N=64, BLOCK_SIZE_K=32)),
        ]
        if mode == "fwd":
            cases.append(("fuse_mul_post", Problem(mode, 16, 512, 512, 256, 2, permute="y"), dict(fuse_mul_post=True)))
        if mode in ("fwd", "dx"):
            cases.append(("deepseek-v3 gate_up: W has 7.5e9 elements", Problem(mode, 256, 4096, 4096, 7168, 8, permute="x"), {}))
        if mode == "dw":
            cases.append(("SPLIT_M=4", Problem(mode, 8, 1024, 256, 256, 2), dict(SPLIT_M=4)))
        for label, problem, knobs in cases:
            base = dict(BLOCK_SIZE_M=64, BLOCK_SIZE_N=128, BLOCK_SIZE_K=64, num_warps=4, num_stages=3)
            base.update(knobs)
            config = cls(permute_x=problem.permute_x, permute_y=problem.permute_y, **base)
            rows.append(check(problem, config, label))
            print(rows[-1], flush=True)
    return pd.DataFrame(rows)


def timing(problems, configs_per_mode) -> pd.DataFrame:
    rows = []
    for p in problems:
        inputs = make_inputs(p, "cuda")
        ref = reference(p, inputs)
        base = {name: time_callable(fn).median_ms for name, fn in baselines(p, inputs).items()}
        cls = config_class(p.mode)
        for knobs in configs_per_mode:
            if not set(knobs) <= set(cls.field_names()):
                continue
            config = cls(permute_x=p.permute_x, permute_y=p.permute_y, **knobs)
            try:
                launcher = Launcher(p, inputs, config)
                checked = check_output(launcher, launcher.out, ref, p.dtype)
                ms = time_callable(launcher).median_ms if checked.status == "ok" else None
                status = checked.status
            except Exception as exc:  # noqa: BLE001
                status, ms = classify(exc)[0], None
            tf = p.flops / ms / 1e9 if ms else None
            rows.append(dict(problem=p.describe(), config=config.to_string(), status=status, ms=ms, tflops=tf,
                             **{f"{k}_ms": v for k, v in base.items()},
                             best_torch_tflops=p.flops / min(base.values()) / 1e9))
            print(rows[-1], flush=True)
    return pd.DataFrame(rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--modes", default="fwd")
    ap.add_argument("--skip", default="", help="comma list of stages to skip: smem,correctness,timing")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    modes = args.modes.split(",")
    skip = set(args.skip.split(","))
    print(active_device())
    qwen = [
        Problem(m, 128, 4096, 1536, 2048, 8, permute="x", gemm="gate_up") for m in modes
    ] + [Problem(m, 128, 4096, 2048, 768, 8, permute="y", gemm="down") for m in modes]
    if "smem" not in skip:
        smem_calibration(qwen, args.out)
    if "correctness" not in skip:
        correctness(modes).to_csv(args.out / "correctness.csv", index=False)
    if "timing" not in skip:
        knobs = [
            dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=64, num_warps=8, num_stages=4),
            dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64, num_warps=8, num_stages=3),
            dict(BLOCK_SIZE_M=64, BLOCK_SIZE_N=128, BLOCK_SIZE_K=64, num_warps=4, num_stages=4),
            dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=64, num_warps=8, num_stages=4, use_tma_load_w=True),
        ]
        mixtral = [Problem(m, 8, 4096, 28672, 4096, 2, permute="x", gemm="gate_up") for m in modes]
        timing(qwen + mixtral, knobs).to_csv(args.out / "timing.csv", index=False)


if __name__ == "__main__":
    main()
