#!/bin/bash
# Call 5 (fitted-n, entry 64): call 4's grouped half again, after the review found that call 4's branch pass declared
# its branch predicate after every `.reg .pred` line of the PTX (4 in these kernels, some inside inline-asm blocks)
# instead of once at the kernel's scope. The tree has fitted_rows_branch.patch applied. Prediction: if that was what
# made call 4's fit_rows wrong, every variant now checks `ok`; if not, the same failures.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
source results/h200/fitted-n/grouped_shapes.sh
echo "all done at $(( $(date +%s) - T0 )) s"
