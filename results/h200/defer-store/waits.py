"""Compile-only check (docs/perf-notes.md, entry 65): per spec, the sm_90 build's registers, spills, HGMMA count and
full wgmma waits (`WARPGROUP.DEPBAR.LE gsb0, 0x0`: one per K loop when ptxas keeps the wgmmas in flight, one per HGMMA
when it serializes them), then ptxas's C75xx notes on the same PTX. No GPU needed; reads the tree's kernels as they
are (apply a patch first), and environment switches such as GEMMTUNE_DEFER_STORE as set.

    PYTHONPATH=. python results/h200/defer-store/waits.py "dx:mixtral-8x7b:down:16384:BLOCK_SIZE_M=128,..."
"""

import os
import sys

os.environ["TRITON_INTERPRET"] = "0"
sys.path.insert(0, "benchmarks")
sys.path.insert(0, "results/h200/fitted-n")
import gemmtune  # noqa: E402,F401  (first: settles the backend before the kernels load)
from gemmtune.engine.compile import _install_compile_only_driver, nvidia_tool, resource_usage  # noqa: E402
from grouped_probe import ptxas_findings  # noqa: E402
from ncu_probe import model_problem  # noqa: E402
from sass_report import build, cubin_sass, opcode_counts, parse_config  # noqa: E402

_install_compile_only_driver({"arch": 90, "warp_size": 32, "num_sms": 132})
for spec in sys.argv[1:]:
    mode, model, gemm, tokens, text = spec.split(":", 4)
    problem = model_problem(model, gemm, int(tokens), mode)
    config = parse_config(problem, text)
    compiled, cubin = build(problem, config)
    regs, spills = resource_usage(cubin)
    sass = cubin_sass(cubin)
    print(f"{model} {gemm} {tokens} {config.to_string()}: regs {regs} spills {spills} "
          f"{opcode_counts(sass)['HGMMA']} HGMMA, {sass.count('WARPGROUP.DEPBAR.LE gsb0, 0x0')} waits", flush=True)
    for line in ptxas_findings(compiled.asm["ptx"], nvidia_tool("ptxas")):
        print("   ", line[:150])
