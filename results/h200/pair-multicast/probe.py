"""Probe (docs/perf-notes.md, entry 62): pair_gemm with and without TMA multicast, beside torch.mm, one process.

    python results/h200/pair-multicast/probe.py --check M,N,K        # each variant against torch.mm
    python results/h200/pair-multicast/probe.py --time M,N,K ...     # interleaved rounds (the sweep's re-time)
    python results/h200/pair-multicast/probe.py --launches 2 M,N,K   # each variant only launched, for ncu

GPU (sm_90) only.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import gemmtune  # noqa: F401,E402  (first: settles the backend before Triton loads)
import torch  # noqa: E402

from gemmtune.engine.retime import retime_do_bench  # noqa: E402
from pair_gemm import PairGemm  # noqa: E402


def inputs(shape: str):
    M, N, K = (int(v) for v in shape.split(","))
    gen = torch.Generator(device="cuda").manual_seed(0)
    x = torch.randn(M, K, generator=gen, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(N, K, generator=gen, device="cuda", dtype=torch.bfloat16).mul_(K ** -0.5)
    return x, w


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shapes", nargs="+")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--time", action="store_true")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--launches", type=int)
    parser.add_argument("--tiling", action="append", default=[],
                        help="STAGES,BK[,SEM] of a variant trio (default 3,64; SEM the remote arrive's, e.g. .release.cluster)")
    args = parser.parse_args()
    print(torch.cuda.get_device_name(), torch.__version__, flush=True)
    for shape in args.shapes:
        x, w = inputs(shape)
        variants = {}
        for tiling in args.tiling or ["3,64"]:
            stages, bk, *sem = tiling.split(",")
            sem = sem[0] if sem else ""
            for multicast in (0, 1, 2):
                name = f"pair s{stages} bk{bk}" + (["", " multicast", " coupled"][multicast] + sem if multicast else "")
                if name not in variants:  # the plain pair has no remote arrive, whatever SEM says
                    variants[name] = PairGemm(x, w, multicast=multicast, stages=int(stages), bk=int(bk), sem=sem)
        print(shape, flush=True)
        if args.launches:
            for v in variants.values():
                for _ in range(args.launches):
                    v()
            torch.cuda.synchronize()
            continue
        if args.check:
            ref = torch.mm(x, w.T).float()
            for name, v in variants.items():
                v.y.fill_(float("nan"))
                out = v().float()
                torch.cuda.synchronize()
                err = ((out - ref).norm() / ref.norm()).item()
                print(f"  {name}: rel err {err:.2e}, finite {bool(out.isfinite().all())}", flush=True)
        if args.time:
            y = torch.empty(x.shape[0], w.shape[0], dtype=x.dtype, device="cuda")
            launchers = dict(variants, **{"torch.mm": lambda: torch.mm(x, w.T, out=y)})
            flops = 2 * x.shape[0] * w.shape[0] * x.shape[1]
            results = retime_do_bench(list(launchers.values()), args.rounds)
            first = results[0]["median_ms"]
            for name, r in zip(launchers, results):
                print(f"  {name:16s} {r['median_ms']:.4f} ms {flops / r['median_ms'] / 1e9:7.1f} TF/s  "
                      f"pair/this {first / r['median_ms']:.3f}  (p20-p80 {r['p20_ms']:.4f}-{r['p80_ms']:.4f}, "
                      f"{r['samples']} samples)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
