#!/bin/bash
# A device call that re-runs suite sweeps (benchmarks/suite.py): `device_suite.sh CALL [--tests] MODE:MODEL...`,
# from the repository root on the GPU machine. With --tests first the whole GPU test suite (pytest -m gpu, 400 s at
# most), then the suite's sweeps of the given modes and models while the call's 600 s last, their files packed into
# $OUT/callCALL/callCALL_suite.tar.gz (at most 8 files come back from a call), beside device.txt.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/.." || exit 1
CALL=$1; shift
D=$OUT/call$CALL; R=/tmp/r$CALL; mkdir -p $D $R
bash benchmarks/device_setup.sh $D
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
