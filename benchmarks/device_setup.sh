#!/bin/bash
# The first step of a device call's script, from the repository root on the GPU machine: install gemmtune from the
# working tree (--no-deps: the machine has its packages) and record in DIR/device.txt the GPU, its driver, power
# limit and maximum SM clock, the tree's fingerprint (tree_fingerprint.sh: what ran, whatever .git says), and git's
# commit with the files it sees changed outside results/h200/ (the machine's .git can lag the copied files).
#     bash benchmarks/device_setup.sh "$OUT"
set -u
DIR=${1:?usage: device_setup.sh DIR}
mkdir -p "$DIR"
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  echo "tree fingerprint $(bash benchmarks/tree_fingerprint.sh)";
  echo "git metadata:"; git log -1 --format=%H 2>/dev/null; git status --short | grep -v "results/h200/" | head -20;
} > "$DIR/device.txt"
