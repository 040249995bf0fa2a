#!/bin/bash
# Call 5 (wide-384, entry 55): the whole GPU test suite on the final kernel code (call 2's run of it was cut
# short by its own 330 s timeout at about three quarters, with no failure by then).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git status --short | grep -v "results/h200/" | head -20; } > "$OUT/device.txt"
timeout 560 python3 -m pytest -q -m gpu tests/ -p no:cacheprovider -rf 2>&1 | tail -25 > "$OUT/pytest_gpu.txt"
tail -3 "$OUT/pytest_gpu.txt"
echo "total $(( $(date +%s) - T0 )) s"
