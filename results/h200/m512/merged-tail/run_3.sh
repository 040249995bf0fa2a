set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -2
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/nvidia-smi.csv
python3 ab_deciles.py 2>&1 | grep -v Warning | tee $OUT/ab_deciles.txt
