"""Probe (docs/perf-notes.md, entry 68, call 3): named configs of one shape, each launched as built (GEMMTUNE_HALVES=0)
or, for a name that ends in " halves", with GEMMTUNE_HALVES=1 (`halves.patch`: a 256-column forward block as two
128-column wgmmas per K slice). Checked, then interleaved beside the torch baselines or under sustained load
(pair-grouped/modes.py): `../store-energy/config_probe.py --switch " halves=GEMMTUNE_HALVES"`. GPU only.

    PYTHONPATH=benchmarks python results/h200/spread-tail/halves_probe.py --shape fwd:llama4-scout:gate_up:4096 \\
        --config "spread16=BLOCK_SIZE_M=128,..." --config "spread16 halves=BLOCK_SIZE_M=128,..." [--sustained 4]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1] / "store-energy"))

import config_probe  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """config_probe with GEMMTUNE_HALVES switched on for the names that end in " halves"."""
    return config_probe.main([*(sys.argv[1:] if argv is None else argv), "--switch", " halves=GEMMTUNE_HALVES"])


if __name__ == "__main__":
    sys.exit(main())
