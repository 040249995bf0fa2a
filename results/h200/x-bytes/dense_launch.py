"""Launch our Gluon forward kernel twice on the dense 4096x16384x5120 (one expert, x-bytes call 4), for Nsight Compute
to count the second launch: the same problem entry 62's pair probe and torch.mm ran in call 3. GPU only.

    python results/h200/x-bytes/dense_launch.py "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,..."
"""

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[3] / "benchmarks"))

import gemmtune  # noqa: E402,F401  (first: settles the backend before the kernels load)
import torch  # noqa: E402
from sass_report import parse_config  # noqa: E402

from gemmtune.kernels import Launcher  # noqa: E402
from gemmtune.problem import Problem, make_inputs  # noqa: E402

problem = Problem(mode="fwd", E=1, M=4096, N=16384, K=5120)
inputs = make_inputs(problem, "cuda")
launcher = Launcher(problem, inputs, parse_config(problem, sys.argv[1]))
for _ in range(2):
    launcher()
torch.cuda.synchronize()
print(problem.describe(), parse_config(problem, sys.argv[1]).to_string())
