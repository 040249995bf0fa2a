"""Compile configs for a GPU target on this machine (no GPU needed) and report what the compiler built.

Per config: registers per thread, spills, shared memory, and instruction counts read off the SASS
(`cuobjdump -sass`, shipped with Triton): HGMMA (Hopper warpgroup MMA) against HMMA (the older mma.sync),
TMA loads and stores (UTMALDG / UTMASTG), plain global loads and stores (LDG / STG), local memory
(LDL / STL, a spill's traffic), and `waits`, the full wgmma waits (`WARPGROUP.DEPBAR.LE gsb0, 0x0`): one per
K loop when ptxas keeps the wgmmas in flight, one per HGMMA when it serializes them. With --ptxas-notes, also
ptxas's performance notes on the same PTX (its C75xx lines, which say why it serialized). METHOD.md in the device
tool's library: read the report and the SASS before guessing.

    python benchmarks/sass_report.py --model mixtral-8x7b --gemm gate_up --tokens 4096 --mode fwd \\
        --config "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=8,num_stages=4,use_tma_load_w=1" \\
        --config "...,flatten=1"

Each --config is a comma list of field=value over the mode's defaults. Use --sass-out DIR to keep each
config's full SASS.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ["TRITON_INTERPRET"] = "0"  # compile for the target even without a GPU (gemmtune.backend)
os.environ.setdefault("TRITON_CACHE_DIR", str(Path.home() / ".cache" / "gemmtune-sass"))

OPCODES = ("HGMMA", "HMMA", "UTMALDG", "UTMASTG", "LDG", "STG", "LDGSTS", "LDL", "STL", "BAR", "SYNCS", "ATOMG")


def parse_config(problem, text: str):
    """A config for `problem` from 'field=value,...' over its mode's defaults, with the problem's permutation.

    Raises ValueError on a field the mode does not have."""
    from gemmtune.config import config_class, config_from_dict

    mode = problem.mode
    names = set(config_class(mode).field_names())
    values = {"permute_x": problem.permute_x, "permute_y": problem.permute_y}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, _, value = item.partition("=")
        if name not in names:
            raise ValueError(f"{name!r} is not a field of a {mode} config")
        values[name] = value.lower() in ("1", "true") if value.lower() in ("0", "1", "true", "false") else int(value)
    return config_from_dict(mode, values)


def build(problem, config, inputs=None):
    """(Triton's compiled kernel, its cubin's path) of `config` on `problem`, built for the target without launching
    (Launcher.compile(load=False)) on `inputs`, by default the problem's 'meta'-device ones (no GPU memory).
    Needs a target: a GPU, or the compile-only driver (gemmtune.engine.compile._install_compile_only_driver)."""
    from gemmtune.engine.compile import meta_inputs
    from gemmtune.kernels import Launcher

    compiled = Launcher(problem, inputs if inputs is not None else meta_inputs(problem), config).compile(load=False)
    return compiled, next(p for name, p in compiled.metadata_group.items() if name.endswith(".cubin"))


def cubin_sass(cubin: str | Path) -> str:
    """The SASS listing of a cubin (`cuobjdump -sass`). Raises CalledProcessError if cuobjdump fails."""
    from gemmtune.engine.compile import nvidia_tool

    return subprocess.run([str(nvidia_tool("cuobjdump")), "-sass", str(cubin)], capture_output=True, text=True,
                          check=True).stdout


def wgmma_waits(sass: str) -> int:
    """Full wgmma waits in a SASS listing: `WARPGROUP.DEPBAR.LE gsb0, 0x0`, one after each K loop's last group when
    ptxas keeps the wgmmas in flight, one after every HGMMA when it serializes them."""
    return sass.count("WARPGROUP.DEPBAR.LE gsb0, 0x0")


def ptxas_notes(ptx: str, arch: int = 90) -> list[str]:
    """ptxas's performance notes on `ptx` (its `(C75xx)` lines under -v, e.g. why it serializes wgmmas), from a
    compile of the same PTX for sm_<arch>a with the ptxas Triton ships (gemmtune.engine.compile.nvidia_tool)."""
    from gemmtune.engine.compile import nvidia_tool

    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "kernel.ptx"
        source.write_text(ptx)
        run = subprocess.run([str(nvidia_tool("ptxas")), f"-arch=sm_{arch}a", "-v", str(source), "-o",
                              str(Path(tmp) / "kernel.cubin")], capture_output=True, text=True)
    return [line.split(": ", 1)[-1] for line in (run.stdout + run.stderr).splitlines() if "(C75" in line]


def opcode_counts(sass: str) -> collections.Counter:
    """How often each opcode family of OPCODES appears in a SASS listing (`HGMMA.64x256x16...` counts as HGMMA)."""
    counts = collections.Counter()
    for match in re.finditer(r"^\s+/\*[0-9a-f]+\*/\s+(?:@!?U?P\w+\s+)?([A-Z0-9]+)", sass, re.MULTILINE):
        if match.group(1) in OPCODES:
            counts[match.group(1)] += 1
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--gemm", required=True, choices=["gate_up", "down"])
    parser.add_argument("--tokens", type=int, default=4096)
    parser.add_argument("--mode", required=True, choices=["fwd", "dx", "dw"])
    parser.add_argument("--config", action="append", required=True)
    parser.add_argument("--arch", type=int, default=90, help="Triton target arch (90 = Hopper)")
    parser.add_argument("--num-sms", type=int, default=132)
    parser.add_argument("--sass-out", type=Path)
    parser.add_argument("--ptxas-notes", action="store_true", help="also print ptxas's C75xx notes per config")
    args = parser.parse_args(argv)

    os.environ["GEMMTUNE_NUM_SMS"] = str(args.num_sms)
    import gemmtune  # noqa: F401  (first: settles the backend before the kernels load)
    from gemmtune.engine.compile import _install_compile_only_driver, meta_inputs, resource_usage
    from gemmtune.models import layer_problems, load_model

    _install_compile_only_driver({"arch": args.arch, "warp_size": 32, "num_sms": args.num_sms})
    problem = next(
        p for p in layer_problems(load_model(args.model), [args.tokens], [args.mode]) if p.gemm == args.gemm
    )
    inputs = meta_inputs(problem)
    print(problem.describe())
    for i, text in enumerate(args.config):
        config = parse_config(problem, text)
        compiled, cubin = build(problem, config, inputs)
        sass = cubin_sass(cubin)
        regs, spills = resource_usage(cubin)
        counts = opcode_counts(sass)
        ops = " ".join(f"{op}={counts[op]}" for op in OPCODES if counts[op])
        print(f"{config.to_string():60s} regs={regs} spills={spills} smem={compiled.metadata.shared} {ops} "
              f"waits={wgmma_waits(sass)}")
        if args.ptxas_notes:
            for note in ptxas_notes(compiled.asm["ptx"], args.arch):
                print(f"    ptxas: {note}")
        if args.sass_out:
            args.sass_out.mkdir(parents=True, exist_ok=True)
            (args.sass_out / f"config{i}.sass").write_text(sass)
    return 0


if __name__ == "__main__":
    sys.exit(main())
