#!/bin/bash
# Calls 3 on (uniform-loader, entry 58): `run_suite.sh CALL [--tests] MODE:MODEL...`: with --tests first the
# whole GPU test suite (pytest -m gpu), then the suite's sweeps of the given modes and models on the kernels of
# 99185d6 (the loaders made warp-uniform), packed into one file (at most 8 files come back).
# The body is benchmarks/device_suite.sh: these calls ran the same commands inline.
exec bash "$(dirname "$0")/../../../benchmarks/device_suite.sh" "$@"
