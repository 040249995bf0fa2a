"""PTX passes of the fitted-n probe (docs/perf-notes.md, entry 64): wgmma instructions narrowed to an N that is
not a power of two, which Triton and Gluon cannot express (their tensors are powers of two).

Each pass takes the PTX text Triton made and returns it rewritten, for a stage wrapped by
triton.knobs.runtime.add_stages_inspection_hook (`wrap_ptx_stage`). The rewrite is not part of Triton's cache key:
a process that uses it compiles into a fresh TRITON_CACHE_DIR.
"""

from __future__ import annotations

import re
from typing import Callable

import triton

WGMMA = re.compile(r"(wgmma\.mma_async\.sync\.aligned\.m64n)(\d+)(k16\.f32\.bf16\.bf16\s*)\{([^}]*)\}")
CHAIN_WIDTHS = (256, 248, 240, 232, 224, 192, 160, 128)
WGMMA_WHOLE = re.compile(WGMMA.pattern + r"([^;]*;)")  # with the operands after the register list
MARKER = "// fitted-n: runtime width"
# The marked instruction: a mov, or a redux.sync whose result ptxas knows to be warp-uniform (hopper_ws.warp_uniform).
MARKED = re.compile(r"(?:mov\.b32|redux\.sync\.min\.s32)\s+(%r\d+),\s*%r\d+(?:,\s*-?\w+)?;\s*" + re.escape(MARKER))


def narrow_wgmma(ptx: str, n: int) -> tuple[str, int]:
    """`ptx` with every m64nNk16 bf16 wgmma narrowed to m64n{n}k16 over its first n/2 accumulator registers
    (PTX ISA, wgmma.mma_async: N a multiple of 8 up to 256; each thread holds N/2 fp32 accumulators, in column
    order). Returns the text and the number of instructions rewritten. Raises ValueError if n is wider than one."""
    count = 0

    def narrow(match):
        nonlocal count
        registers = [r.strip() for r in match.group(4).split(",")]
        if n > int(match.group(2)) or n % 8:
            raise ValueError(f"cannot narrow m64n{match.group(2)} to n={n}")
        count += 1
        return f"{match.group(1)}{n}{match.group(3)}{{{', '.join(registers[: n // 2])}}}"

    return WGMMA.sub(narrow, ptx), count


def runtime_width_register(ptx: str) -> str:
    """The register the kernel's MARKER asm writes the runtime width into. Raises ValueError without exactly one
    marker."""
    marks = MARKED.findall(ptx)
    if len(marks) != 1:
        raise ValueError(f"expected one runtime-width marker in the PTX, found {len(marks)}")
    return marks[0]


def chain_wgmma(ptx: str, widths=CHAIN_WIDTHS) -> tuple[str, int]:
    """`ptx` with every bf16 wgmma (fitted_n.py's m64n256k16) replaced by one predicated copy per width of
    `widths`: the copy whose width equals the runtime width (the register the kernel's MARKER asm writes) is the
    one that issues. Returns the text and the number of wgmmas replaced. Raises ValueError without exactly one
    marker."""
    width_reg, count = runtime_width_register(ptx), 0

    def chain(match):
        nonlocal count
        registers = [r.strip() for r in match.group(4).split(",")]
        count += 1
        lines = ["{", ".reg .pred fitp;"]
        for n in widths:
            lines += [f"setp.eq.u32 fitp, {width_reg}, {n};",
                      f"@fitp {match.group(1)}{n}{match.group(3)}{{{', '.join(registers[: n // 2])}}}{match.group(5)}"]
        return "\n".join(lines + ["}"])

    return WGMMA_WHOLE.sub(chain, ptx), count


COPY_MARK = re.compile(r"// (?:fitted-n|gemmtune fit): width (\d+)")


def copy_wgmma(ptx: str, base: int = 256) -> tuple[str, dict[int, int]]:
    """`ptx` with each m64n{base}k16 wgmma narrowed to the width of the copy marker (COPY_MARK, a comment the
    kernel's asm puts in the text) last seen above it: a K loop compiled once per width, each copy opened by its
    marker. Other wgmmas (a merged tail's) and those above every marker are left alone. Returns the text and
    the number of wgmmas narrowed under each width."""
    width, counts, out = None, {}, []
    for line in ptx.splitlines():
        mark = COPY_MARK.search(line)
        if mark:
            width = int(mark.group(1))
        else:
            found = WGMMA.search(line)
            if found and width is not None and int(found.group(2)) == base:
                line, _ = narrow_wgmma(line, width)
                counts[width] = counts.get(width, 0) + 1
        out.append(line)
    return "\n".join(out) + "\n", counts


def wrap_ptx_stage(rewrite: Callable[[str], str]) -> None:
    """Install a stages hook whose PTX stage passes Triton's PTX through `rewrite` (text to text) before ptxas."""

    def hook(backend, stages, options, language, capability):
        make_ptx = stages["ptx"]
        stages["ptx"] = lambda src, metadata: rewrite(make_ptx(src, metadata))

    triton.knobs.runtime.add_stages_inspection_hook = hook


def branch_wgmma_groups(ptx: str, widths: tuple[int, ...], base: int = 256) -> tuple[str, int]:
    """`ptx` with each group of m64n{base}k16 wgmmas (from the first to the last before a wgmma.commit_group, the
    descriptor arithmetic between them included) duplicated once per narrower width of `widths`, behind a branch
    on the runtime width (the register the kernel's MARKER asm writes): equal to a width, the group runs narrowed
    to it; else as it was. Every path writes the same accumulator registers, and only by wgmmas, which ptxas
    requires to keep them in flight (ptxas C7515). Labels inside a copy are renamed. Returns the text and the
    number of groups. Raises ValueError without exactly one marker."""
    width_reg = runtime_width_register(ptx)
    lines = ptx.splitlines()
    out, groups, i, declared = [], 0, 0, False
    while i < len(lines):
        found = WGMMA.search(lines[i])
        if not (found and int(found.group(2)) == base):
            out.append(lines[i])
            if not declared and re.match(r"\s*\.reg \.pred\s", lines[i]):  # the branches' predicate, once
                out.append("\t.reg .pred %fitp;")
                declared = True
            i += 1
            continue
        end = i  # the group's last base-width wgmma before its commit
        j = i + 1
        while j < len(lines) and "wgmma.commit_group" not in lines[j]:
            hit = WGMMA.search(lines[j])
            if hit and int(hit.group(2)) == base:
                end = j
            j += 1
        span = lines[i:end + 1]
        done = f"$L__fitn_done{groups}"
        for n in (w for w in widths if w != base):
            out += [f"\tsetp.eq.u32 %fitp, {width_reg}, {n};", f"\t@%fitp bra $L__fitn_{n}_{groups};"]
        out += span + [f"\tbra.uni {done};"]
        for n in (w for w in widths if w != base):
            copy = [re.sub(r"\$L__(\w+)", rf"$L__fitn_{n}_{groups}_\1", line) for line in span]
            out += [f"$L__fitn_{n}_{groups}:"] + [narrow_wgmma(line, n)[0] for line in copy] + [f"\tbra.uni {done};"]
        out += [f"{done}:"]
        groups += 1
        i = end + 1
    return "\n".join(out) + "\n", groups
