#!/bin/bash
# The arms that arms_probe.py loads (run before run_1.sh, run_2.sh, run_8.sh, run_9.sh; not committed, they are
# copies of the kernel modules): base = the Gluon modules before entry 58 (cec0bb7), loader = 99185d6's.
set -eu
cd "$(dirname "$0")"
for arm in base:cec0bb7 loader:99185d6; do
  mkdir -p "arms/${arm%%:*}"
  for module in fwd_ws dw_ws; do
    git show "${arm#*:}:gemmtune/kernels/$module.py" > "arms/${arm%%:*}/$module.py"
  done
done
