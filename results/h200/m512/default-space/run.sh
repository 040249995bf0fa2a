set -u
python3 -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | tail -2
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $OUT/nvidia-smi.csv
python3 -m pytest -m gpu tests/test_gpu.py -k merged_tail -q 2>&1 | tail -4 > $OUT/pytest_merged_tail.txt
cat $OUT/pytest_merged_tail.txt
for m in mixtral-8x7b llama4-scout; do
  start=$(date +%s)
  gemmtune sweep --model $m --tokens 512 --mode fwd --out $OUT -q > $OUT/sweep_$m.txt 2>&1
  echo "sweep rc $? in $(( $(date +%s) - start )) s" >> $OUT/sweep_$m.txt
  tail -1 $OUT/sweep_$m.txt
done
PYTHONPATH=benchmarks python3 benchmarks/weight_floor.py $OUT/*_fwd_M512_*.parquet | tee $OUT/weight_floor.txt
