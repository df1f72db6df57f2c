#!/bin/bash
# make_large_pool.sh OUT: stop 58's pools (make_pools.sh there: refeaturized with this build and
# stop 55's Zen 4 calibration) plus the larger random pipelines in training: 2026-11-29's 512/1024
# dropout and 1024 near-optimal samples, and 2026-12-04's 2048 near-optimal samples (large.jsonl;
# train.py drops the held-out seeds itself). Run from the repository root.
set -euo pipefail
out=$1; D=models/learned/dataset
M=bench/head_to_head_results/2026-12-03_s55/calibration/machine_zen4.json
bench/head_to_head_results/2026-12-04_s58/make_pools.sh "$out"
for f in 2026-11-29/near_optimal_1024_samples 2026-12-04/large2048_near_optimal_samples; do
  n=$(echo $f | tr / _)
  zcat $D/$f.jsonl.gz > "$out/raw_$n.jsonl"
  build/bin/candor_refeaturize "$out/raw_$n.jsonl" "$out/$n.jsonl" --machine $M
  rm "$out/raw_$n.jsonl"
done
cat "$out/free.jsonl" "$out"/2026-11-29_samples_512_1024.jsonl "$out"/2026-11-29_near_optimal_1024_samples.jsonl \
    "$out"/2026-12-04_large2048_near_optimal_samples.jsonl > "$out/large.jsonl"
