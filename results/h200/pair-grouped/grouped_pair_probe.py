"""Probe (docs/perf-notes.md, entry 65): entry 62's CTA-pair kernel on a grouped problem, against ours.

llama4-scout's gate_up at 4096 tokens with balanced routing and no permutation (E=16, every expert 256 rows of X in
expert order, N=16384, K=5120). Entry 62's pair_gemm, run grouped (pair row p = expert p, its W rows from p·N), computes
each expert's two 128-row blocks of one 256-column block in a 2-CTA cluster: "plain" (each CTA loads all of W's block),
"multicast" (each CTA multicasts its half of it to both) and "coupled" (plain loads, the pair's release). Beside them
our Gluon kernel's suite config (256×128 tiles) and the same 128×256 tile as the pair's CTAs, and the torch baselines,
all on the same tensors. Modes:
- default: every variant checked against gemmtune's reference, then timed in interleaved rounds (benchmarks/probe.py);
- --sustained S: each back to back for S seconds, the SM clock and power sampled (benchmarks/power_probe.py);
- --launches N: each launched N times, for Nsight Compute.
GPU (sm_90) only.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.append(str(ROOT / "benchmarks"))
sys.path.append(str(ROOT / "results" / "h200" / "pair-multicast"))

import gemmtune  # noqa: E402,F401  (first: settles the backend before Triton loads)
import modes  # noqa: E402

OURS = {
    "ours 256x128 (suite)": "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=4,"
                            "TAIL_ROWS=32,use_tma_load_w=1,use_tma_load_x=1,warp_specialize=1",
    "ours 128x256": "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,GROUP_SIZE_M=8,num_warps=8,num_stages=3,"
                    "use_tma_load_w=1,use_tma_load_x=1,warp_specialize=1",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    modes.add_mode_arguments(parser)
    args = parser.parse_args(argv)

    import probe
    from pair_gemm import PairGemm
    from sass_report import parse_config

    from gemmtune.kernels import Launcher
    from gemmtune.problem import Problem, make_inputs

    problem = Problem(mode="fwd", E=16, M=4096, N=16384, K=5120, routing="balanced", gemm="gate_up")
    inputs = make_inputs(problem, "cuda")
    assert inputs.m_sizes.tolist() == [256] * problem.E, inputs.m_sizes.tolist()
    w_rows = inputs.w.reshape(problem.E * problem.N, problem.K)
    variants = []
    for name, text in OURS.items():
        launcher = Launcher(problem, inputs, parse_config(problem, text))
        variants.append((name, launcher, launcher.out))
    for multicast, name in ((0, "pair plain"), (1, "pair multicast"), (2, "pair coupled")):
        pair = PairGemm(inputs.x, w_rows, multicast=multicast, experts=problem.E)
        variants.append((name, pair, pair.y))
    print(probe.header(), flush=True)

    return modes.run(problem, inputs, variants, args)

if __name__ == "__main__":
    sys.exit(main())
