#!/bin/bash
# A fingerprint of the code a run uses: sha256 over the paths and contents of every file under gemmtune/, benchmarks/
# and configs/ (bytecode caches left out), from the repository root. It needs no git metadata, so a device call's
# record (device_setup.sh) names the tree it ran even where the machine's .git lags the copied files; the same command
# in a checkout (with any patch applied) tells whether that checkout is the tree.
#     bash benchmarks/tree_fingerprint.sh
set -u
find gemmtune benchmarks configs -type f -not -path "*/__pycache__/*" -not -name "*.pyc" | LC_ALL=C sort |
  xargs sha256sum | sha256sum | cut -c1-16
