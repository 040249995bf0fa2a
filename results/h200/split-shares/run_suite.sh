#!/bin/bash
# Calls 4 on (split-shares, entry 61): `run_suite.sh CALL [--tests] MODE:MODEL...`: with --tests first the
# whole GPU test suite (pytest -m gpu), then the suite's sweeps of the given modes and models, split_tail in their
# spaces, packed into one file (at most 8 files come back).
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
CALL=$1; shift
python3 -m pip install -q --no-deps --no-build-isolation -e . > /dev/null 2>&1
D=$OUT/call$CALL; R=/tmp/r$CALL; mkdir -p $D $R
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git status --short | grep -v "results/h200/" | head -20; } > $D/device.txt
if [ "${1:-}" = "--tests" ]; then
  shift
  timeout 400 python3 -m pytest -q -m gpu tests/ 2>&1 | tail -12 > $D/pytest_gpu.txt
  tail -3 $D/pytest_gpu.txt; echo "tests done at $(( $(date +%s) - T0 )) s"
fi
for item in "$@"; do
  mode=${item%%:*}; m=${item#*:}
  left=$(( 585 - ($(date +%s) - T0) ))
  [ $left -lt 60 ] && { echo "no time left for $mode $m" | tee -a $R/suite_log.txt; continue; }
  start=$(date +%s)
  timeout $left python3 benchmarks/suite.py run --out $R --models $m --modes $mode > $R/suite_${mode}_$m.log 2>&1
  echo "suite $mode $m rc $? in $(( $(date +%s) - start )) s" | tee -a $R/suite_log.txt
done
rm -f $R/*.journal.jsonl*
tar czf $D/call${CALL}_suite.tar.gz -C $R .
