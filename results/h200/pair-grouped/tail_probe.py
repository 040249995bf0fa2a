"""Probe (docs/perf-notes.md, entry 65): whether tiles that share W stay in step on llama4-scout's gate_up at 4096
tokens (uniform routing, the suite's problem), and what that does to the L2 reads and the clock.

Call 1 found our 128x256 tile, with balanced routing, reading 0.75x the L2 sectors of the suite's 256x128 tile and
running at a 6 % higher sustained clock: an expert's two 128-row blocks read the same W block at about the same time.
With uniform routing about half the experts carry a merged tail on their last block, which then runs slower than the
block beside it (entry 60). Variants: the suite's 256x128 config; 128x256 with the carried tail; the same with
split_tail (the tail's K steps shared by the expert's blocks), which pruning keeps to reductions of at least
TAIL_SPLIT_STEPS (128) steps, lowered here to --split-steps for this process only (80 here); and 128x256 without merged
tails, all on the dynamic schedule (--set tails, call 2). --set static: the 128x256 ones on the static schedule (call
3). --set aligned with --routing: the suite tile and 128x256 on the static schedule under another routing (call 4).
Modes as grouped_pair_probe.py: checked and timed in interleaved rounds; --sustained S; --launches N.
GPU only.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[3] / "benchmarks"))

import gemmtune  # noqa: E402,F401  (first: settles the backend before Triton loads)
import modes  # noqa: E402

COMMON, SUITE = modes.COMMON, modes.SUITE
VARIANT_SETS = {
    "tails": {  # call 2
        "suite 256x128 tail32": SUITE,
        "128x256 tail32": f"BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,TAIL_ROWS=32,dynamic_schedule=1,{COMMON}",
        "128x256 tail32 split_tail": f"BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,TAIL_ROWS=32,dynamic_schedule=1,split_tail=1,"
                                     f"{COMMON}",
        "128x256 no tail": f"BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,dynamic_schedule=1,{COMMON}",
    },
    "aligned": {  # call 4: the suite tile and 128x256 on the static schedule, for --routing comparisons
        "suite 256x128 tail32": SUITE,
        "128x256 tail32 static": f"BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,TAIL_ROWS=32,{COMMON}",
        "128x256 no tail static": f"BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,{COMMON}",
    },
    "static": {  # call 3: the same 128x256 tiles on the static schedule, where a program's next tile is fixed
        "suite 256x128 tail32": SUITE,
        "128x256 tail32 static": f"BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,TAIL_ROWS=32,{COMMON}",
        "128x256 tail32 split_tail static": f"BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,TAIL_ROWS=32,split_tail=1,{COMMON}",
        "128x256 tail32 split_tail static s3": f"BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,TAIL_ROWS=32,split_tail=1,"
                                               f"{COMMON.replace('num_stages=4', 'num_stages=3')}",
    },
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    modes.add_mode_arguments(parser)
    parser.add_argument("--split-steps", type=int, default=80, help="TAIL_SPLIT_STEPS for this process")
    parser.add_argument("--set", choices=sorted(VARIANT_SETS), default="tails", help="which variants")
    parser.add_argument("--routing", default="uniform",
                        help="uniform | balanced | aligned (ragged experts of whole 128-row blocks: 8 of 256 rows, "
                             "4 of 384, 4 of 128) | a routing file")
    args = parser.parse_args(argv)

    import probe
    from sass_report import parse_config

    from gemmtune import pruning
    from gemmtune.kernels import Launcher

    pruning.TAIL_SPLIT_STEPS = args.split_steps  # read at each launch by pruning.splits_tails
    problem, inputs = modes.llama4_gate_up(args.routing)
    variants = []
    for name, text in VARIANT_SETS[args.set].items():
        launcher = Launcher(problem, inputs, parse_config(problem, text))
        variants.append((name, launcher, launcher.out))
    print(probe.header(), f"TAIL_SPLIT_STEPS {pruning.TAIL_SPLIT_STEPS}, m_sizes {inputs.m_sizes.tolist()}", flush=True)

    return modes.run(problem, inputs, variants, args)

if __name__ == "__main__":
    sys.exit(main())
