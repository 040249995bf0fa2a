"""Probe (docs/perf-notes.md, entry 66): an expert's two 128-row blocks kept in step at every K step, and which
programs' W reads merge, on llama4-scout's gate_up at 4096 tokens (the suite problem: permute_x, pregather).

Needs step_sync.patch (pair-grouped's trace.patch and pair_sync.patch, and on the static schedule, read at each
launch: GEMMTUNE_PAIR_SYNC=2, the loaders of the two programs that run an expert's two blocks of one column meet
before every K step through relaxed progress flags in global memory; GEMMTUNE_PROGRAM_MAP=1 or 2, those two blocks go
to programs two apart, or NUM_SMS/2 apart, instead of neighbours), or w_prefetch.patch (all that, and
GEMMTUNE_W_PREFETCH=D: the loader prefetches into L2 the W block it loads D steps later, and with
GEMMTUNE_W_PREFETCH_HINT=1 as evict_last).

--set sync (uniform routing): the suite config, 128x256 tiles on the static schedule with the carried tail and with
split_tail (lowered to 80 K steps), each without and with the coupling at every step.
--set map (balanced routing): the suite config, and 128x256 on the static schedule under the three program maps.
--set prefetch, prefetch-balanced (uniform, balanced routing): the suite config (256x128, static schedule; its two
tiles of one X block run on programs 2j and 2j + 1), with W prefetched 0, 8 and 16 steps ahead.
--set distance, distance-balanced (uniform, balanced routing): the suite config with W prefetched 0, 4, 6 and 8 steps
ahead, and 4 and 6 as evict_last.
Modes: checked, then interleaved rounds (default); --launches N (for Nsight Compute); --trace: per variant, three
traced launches, and of the last, per pair of tiles that read the same W block (same expert and column), the gap
between their starts and whether their SMs are neighbours (same smid // 2). GPU only.

    PYTHONPATH=benchmarks python results/h200/step-sync/step_probe.py --set sync [--trace | --launches 2]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.append(str(ROOT / "benchmarks"))
sys.path.append(str(ROOT / "results" / "h200" / "pair-grouped"))

import gemmtune  # noqa: E402,F401  (first: settles the backend before Triton loads)
import modes  # noqa: E402

WIDE = f"BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,TAIL_ROWS=32,{modes.COMMON}"
SETS = {  # name -> (routing, variants: (name, config, GEMMTUNE_PAIR_SYNC, GEMMTUNE_PROGRAM_MAP[, W_PREFETCH]))
    "sync": ("uniform", (
        ("suite 256x128 tail32", modes.SUITE, 0, 0),
        ("128x256 tail32 static", WIDE, 0, 0),
        ("128x256 tail32 static, step-coupled", WIDE, 2, 0),
        ("128x256 split_tail static", f"{WIDE},split_tail=1", 0, 0),
        ("128x256 split_tail static, step-coupled", f"{WIDE},split_tail=1", 2, 0),
    )),
    "map": ("balanced", (
        ("suite 256x128 tail32", modes.SUITE, 0, 0),
        ("128x256 static, neighbours", WIDE, 0, 0),
        ("128x256 static, two apart", WIDE, 0, 1),
        ("128x256 static, 66 apart", WIDE, 0, 2),
    )),
}
PREFETCH = tuple((f"suite 256x128 tail32, W prefetch {d}", modes.SUITE, 0, 0, d) for d in (0, 8, 16))
SETS["prefetch"] = ("uniform", PREFETCH)
SETS["prefetch-balanced"] = ("balanced", PREFETCH)
DISTANCE = tuple((f"suite 256x128 tail32, W prefetch {d}{' evict_last' if hint else ''}", modes.SUITE, 0, 0, d, hint)
                 for d, hint in ((0, 0), (4, 0), (6, 0), (8, 0), (4, 1), (6, 1)))
SETS["distance"] = ("uniform", DISTANCE)
SETS["distance-balanced"] = ("balanced", DISTANCE)


def patch_env(sync: int, program_map: int, prefetch: int = 0, hint: int = 0) -> dict[str, str]:
    """The patches' variables for one variant of SETS."""
    return {"GEMMTUNE_PAIR_SYNC": str(sync), "GEMMTUNE_PROGRAM_MAP": str(program_map),
            "GEMMTUNE_W_PREFETCH": str(prefetch), "GEMMTUNE_W_PREFETCH_HINT": str(hint)}


def print_trace(name: str, launch, problem, block_m: int, block_n: int) -> None:
    """Three traced launches of `launch`; of the last, the start gaps of the tiles that read the same W block and the
    share of them on neighbouring SMs (smid // 2 equal), then the same for tiles that read the same X block (same
    expert and rows, columns 2c and 2c + 1)."""
    rows = modes.traced_rows(launch)  # (start, end, expert, m0, n0, sm, program)
    first = min(r[0] for r in rows)
    print(f"\n{name}: {len(rows)} tiles, launch {(max(r[1] for r in rows) - first) / 1e3:.1f} us, "
          f"tile median {statistics.median((r[1] - r[0]) / 1e3 for r in rows):.2f} us", flush=True)
    for label, key in (("same W block", lambda r: (r[2], r[4])),
                       ("same X block", lambda r: (r[2], r[3], r[4] // (2 * block_n)))):
        groups: dict = {}
        for r in rows:
            groups.setdefault(key(r), []).append(r)
        pairs = [g for g in groups.values() if len(g) == 2]
        if not pairs:
            print(f"  {label}: no pairs", flush=True)
            continue
        gaps = sorted(abs(a[0] - b[0]) / 1e3 for a, b in pairs)
        neighbours = sum(a[5] // 2 == b[5] // 2 for a, b in pairs)
        apart = statistics.median(abs(a[6] - b[6]) for a, b in pairs)
        print(f"  {label}: {len(pairs)} pairs, start gap median {statistics.median(gaps):.2f} us, "
              f"p90 {gaps[int(0.9 * len(gaps))]:.2f} us; on neighbouring SMs {neighbours}; "
              f"programs apart (median) {apart}", flush=True)
    programs = sorted({(r[6], r[5]) for r in rows})
    print("  program:SM " + " ".join(f"{p}:{s}" for p, s in programs[:24]) + " ...", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(SETS), required=True)
    parser.add_argument("--trace", action="store_true")
    modes.add_mode_arguments(parser)
    args = parser.parse_args(argv)

    import probe
    from sass_report import parse_config

    from gemmtune import pruning
    from gemmtune.kernels import Launcher

    pruning.TAIL_SPLIT_STEPS = 80  # read at each launch by pruning.splits_tails
    routing, table = SETS[args.set]
    problem, inputs = modes.llama4_gate_up(routing)
    variants = []
    for name, text, *settings in table:
        config = parse_config(problem, text)
        launcher = Launcher(problem, inputs, config)
        variants.append((name, modes.with_env(launcher, patch_env(*settings)), launcher.out, config))
    print(probe.header(), f"routing {routing}, m_sizes {inputs.m_sizes.tolist()}", flush=True)
    if args.trace:
        for name, launch, _, config in variants:
            launch()
            print_trace(name, launch, problem, config.BLOCK_SIZE_M, config.BLOCK_SIZE_N)
        return 0
    return modes.run(problem, inputs, [v[:3] for v in variants], args, 40)


if __name__ == "__main__":
    sys.exit(main())
