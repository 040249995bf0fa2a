"""Probe (docs/perf-notes.md, entry 65): an expert's two 128-row blocks coupled at every tile, on llama4-scout's gate_up
at 4096 tokens (uniform routing, the suite problem).

Needs pair_sync.patch: with GEMMTUNE_PAIR_SYNC=1 at a launch (static schedule), the loader of program p publishes its
progress before each tile and waits for program p ^ 1's, so the two programs that run an expert's two blocks of one
column start each tile together (calls 5-6: without a coupling the blocks drift apart and their W reads stop merging).
Variants: the suite config, and 128x256 tiles on the static schedule with the carried tail and with split_tail
(lowered to 80 K steps), each without and with the coupling. Modes: checked, then interleaved rounds (default);
--sustained S; --launches N (for Nsight Compute). GPU only.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[3] / "benchmarks"))

import gemmtune  # noqa: E402,F401  (first: settles the backend before Triton loads)
import modes  # noqa: E402

COMMON = modes.COMMON
VARIANTS = (  # name, config, coupled
    ("suite 256x128 tail32", modes.SUITE, False),
    ("128x256 tail32 static", f"BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,TAIL_ROWS=32,{COMMON}", False),
    ("128x256 tail32 static, coupled", f"BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,TAIL_ROWS=32,{COMMON}", True),
    ("128x256 split_tail static", f"BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,TAIL_ROWS=32,split_tail=1,{COMMON}", False),
    ("128x256 split_tail static, coupled", f"BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,TAIL_ROWS=32,split_tail=1,{COMMON}",
     True),
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    modes.add_mode_arguments(parser)
    args = parser.parse_args(argv)

    import probe
    from sass_report import parse_config

    from gemmtune import pruning
    from gemmtune.kernels import Launcher

    pruning.TAIL_SPLIT_STEPS = 80  # read at each launch by pruning.splits_tails
    problem, inputs = modes.llama4_gate_up("uniform")
    variants = []
    for name, text, on in VARIANTS:
        launcher = Launcher(problem, inputs, parse_config(problem, text))
        # pair_sync.patch reads GEMMTUNE_PAIR_SYNC at each launch
        variants.append((name, modes.with_env(launcher, {"GEMMTUNE_PAIR_SYNC": "1" if on else "0"}),
                         launcher.out))
    print(probe.header(), f"m_sizes {inputs.m_sizes.tolist()}", flush=True)

    return modes.run(problem, inputs, variants, args, 36)


if __name__ == "__main__":
    sys.exit(main())
