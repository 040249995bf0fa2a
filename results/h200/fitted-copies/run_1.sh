#!/bin/bash
# Call 1 (fitted-copies): entry 64's fitted tiles with K-loop copies whose accumulators never join.
# fitted_copies.patch (on 977867c) rebuilds swap_ab and gives fit_rows one copy per width of a tail-less 256-row
# tile's K loop and epilogue (fitted_copy), each closed by its own marker so that LLVM cannot merge the copies'
# epilogues; compiled for sm_90, ptxas keeps the wgmmas in flight (7 waits for 7 loops, compile_report.txt).
# Then entry 64's call 3 again (fitted-n/grouped_shapes.sh): per shape, a 256-row config, with swap_ab, with
# swap_ab and fit_rows, beside the suite's config where it differs, all checked, then timed with the torch baselines
# in 6 interleaved rounds. Prediction: fit_rows faster than swap_ab by about the padded rows it removes, 1.4 % on
# llama4-scout's gate_up and down at 4096 tokens, 3 % on its gate_up at 16384, 0.6 % on mixtral's gate_up at 4096.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
git apply results/h200/fitted-copies/fitted_copies.patch || { echo "patch did not apply"; exit 1; }
bash benchmarks/device_setup.sh "$OUT"
source results/h200/fitted-n/grouped_shapes.sh
echo "all done at $(( $(date +%s) - T0 )) s"
