"""gemmtune: find the fastest Triton config for each grouped GEMM of a Mixture-of-Experts layer.

Everything the CLI does is importable:

    from gemmtune import Problem, get_kernel_configs, load_space, plan_sweep, run_sweep, resolve_device
"""

__version__ = "0.1.0"

from gemmtune.backend import select_backend  # noqa: E402  (first: picks the interpreter before triton loads)

from gemmtune.config import (  # noqa: E402
    KernelConfig,
    KernelConfigBackward_dW,
    KernelConfigBackward_dX,
    KernelConfigForward,
)
from gemmtune.device import DeviceProperties, preset, resolve_device  # noqa: E402
from gemmtune.export import lookup  # noqa: E402
from gemmtune.problem import Problem  # noqa: E402
from gemmtune.results import KernelResult, SweepResults, read_results  # noqa: E402
from gemmtune.space import get_kernel_configs, load_space  # noqa: E402
from gemmtune.sweep import plan_sweep, run_sweep  # noqa: E402

__all__ = [
    "DeviceProperties",
    "KernelConfig",
    "KernelConfigBackward_dW",
    "KernelConfigBackward_dX",
    "KernelConfigForward",
    "KernelResult",
    "Problem",
    "SweepResults",
    "get_kernel_configs",
    "load_space",
    "lookup",
    "plan_sweep",
    "preset",
    "read_results",
    "resolve_device",
    "run_sweep",
    "select_backend",
]
