#!/bin/bash
# Call 3 (fitted-n, entry 64): the Gluon forward kernel with fitted_rows.patch applied (swap_ab, fit_rows), one
# process per shape: a 256-row config, the same with swap_ab, and with swap_ab and fit_rows, beside the suite's
# config where it differs, all checked, then timed with the torch baselines in 6 interleaved rounds. Prediction: if
# fitted tiles save the MMA time of the rows they no longer pad, fit_rows runs faster than swap_ab by about the
# share of padded rows it removes (printed per shape), on llama4-scout's gate_up at 4096 tokens 3-5 %.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
source results/h200/fitted-n/grouped_shapes.sh
echo "all done at $(( $(date +%s) - T0 )) s"
