#!/bin/bash
# Call 1 (three-warpgroups): the probe's 192x256 tile over three MMA warpgroups (12 warps, the loader folded into
# the first MMA partition, 168 registers each) against the same kernel at 128x256 over two, the shipped Gluon
# and plain 128x256 configs on one expert, and torch.mm, on dense GEMMs of mixtral's (N 28672, K 4096) and
# llama4-scout's (N 16384, K 5120) gate_up sizes at M = 9216 (48 tiles of 192 rows, 72 of 128): each checked, then
# 6 interleaved rounds, then 4 s of sustained load each with the SM clock and power sampled.
set -u
T0=$(date +%s)
cd "$(dirname "$0")/../../.." || exit 1
python3 -m pip install --no-deps --no-build-isolation -e . -q > /dev/null 2>&1
{ nvidia-smi --query-gpu=name,driver_version,temperature.gpu,power.limit,clocks.max.sm --format=csv;
  git log -1 --format=%H 2>/dev/null; git status --short | grep -v "results/h200/" | head -20; } > "$OUT/device.txt"
P=results/h200/three-warpgroups/three_wg_probe.py
timeout 240 python3 $P --M 9216 --N 28672 --K 4096 --sustained 4 2>&1 | grep -v Warning > "$OUT/mixtral_sizes.txt"
cut -c1-170 "$OUT/mixtral_sizes.txt"
echo "mixtral sizes done at $(( $(date +%s) - T0 )) s"
timeout 240 python3 $P --M 9216 --N 16384 --K 5120 --sustained 4 2>&1 | grep -v Warning > "$OUT/llama4_sizes.txt"
cut -c1-170 "$OUT/llama4_sizes.txt"
echo "total $(( $(date +%s) - T0 )) s"
