"""TEST HOOK: fault injection into worker processes, so tests can prove a sweep survives bad configs.

GEMMTUNE_FAULTS holds a JSON object from a config's string (KernelConfig.to_string()) to a fault:

    GEMMTUNE_FAULTS='{"fwd BM32 BN32 BK32 G4 w4 s2": "kill", "fwd BM64 BN64 BK32 G4 w4 s3": "hang"}'

GPU-worker faults (on 'run'): "kill" (the process dies: SIGKILL), "hang" (sleeps forever), "raise" (the config
raises RuntimeError), "sticky" (raises a CUDA illegal-address error, which the worker treats as sticky),
"sleep:S" (waits S seconds, then runs normally). Compile-worker faults: "compile-kill", "compile-hang",
"compile-raise" (a Triton CompilationError). Read only inside worker processes; unset in normal use.
"""

from __future__ import annotations

import json
import os
import signal
import time

ENV = "GEMMTUNE_FAULTS"


def inject(config_string: str, stage: str = "run") -> None:
    """Act out the fault set for `config_string` at `stage` ('run' or 'compile'), if any."""
    raw = os.environ.get(ENV)
    if not raw:
        return
    fault = json.loads(raw).get(config_string, "")
    prefix = "compile-" if stage == "compile" else ""
    if prefix and not fault.startswith(prefix):
        return
    if not prefix and fault.startswith("compile-"):
        return
    fault = fault.removeprefix(prefix)
    if fault == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    elif fault == "hang":
        while True:
            time.sleep(3600)
    elif fault == "raise" and stage == "compile":
        from triton.compiler.errors import CompilationError

        raise CompilationError(None, None, f"injected compile error ({ENV}) for {config_string}")
    elif fault == "raise":
        raise RuntimeError(f"injected fault ({ENV}) for {config_string}")
    elif fault == "sticky":
        raise RuntimeError("CUDA error: an illegal memory access was encountered (injected fault)")
    elif fault.startswith("sleep:"):
        time.sleep(float(fault.split(":", 1)[1]))
