"""What the engine's fork server loads once, for every worker forked from it (gemmtune.engine.process).

Importing this module imports what the compile and GPU workers use (torch, triton, the kernels, the runner)
and computes Triton's key of its own installation (`triton_key`: a hash of libtriton and of Triton's sources,
about 0.2 s, cached per process), so that no worker pays for either again.
"""

import gemmtune.engine.retime  # noqa: F401
import gemmtune.kernels  # noqa: F401
import gemmtune.runner  # noqa: F401
import gemmtune.sweep  # noqa: F401
import triton.testing  # noqa: F401

try:
    from triton.runtime.cache import triton_key  # internal to Triton: a warm-up only, never required

    triton_key()
except Exception:  # noqa: BLE001
    pass
