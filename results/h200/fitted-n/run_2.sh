#!/bin/bash
# Call 2 (fitted-n, entry 64): the width chosen at run time. One kernel whose every wgmma is a chain of predicated
# copies of widths 256 ... 128 (fitted_n.chain_wgmma), the copy equal to the runtime width issuing, beside the
# same widths narrowed at compile time and the native 256 tile. Prediction: if the chain is what a grouped
# kernel can carry (one compile, a width per tile), it runs within 1 % of the narrowed kernel at each width.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
bash benchmarks/device_setup.sh "$OUT"
for shape in 16384,5120 28672,4096; do
  timeout 200 python3 results/h200/fitted-n/fitted_n.py --n-out ${shape%,*} --k ${shape#*,} --rounds 6 \
    --n 240 224 --chain 256 240 224 128 --native 256 > "$OUT/chain_${shape//,/x}.txt" 2>&1
  echo "$shape rc $?"; grep -v "^  \|^    " "$OUT/chain_${shape//,/x}.txt" | cut -c1-200
done
echo "all done at $(( $(date +%s) - T0 )) s"
