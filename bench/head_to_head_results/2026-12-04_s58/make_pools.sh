#!/bin/bash
# make_pools.sh OUT: the Zen 4 pools of this stop, refeaturized with this build and stop 55's Zen 4
# calibration (about 30 s), plus tuned_apps.jsonl (both tuned app sets of 2026-11-27) and
# free.jsonl (stop 46's "free" training pool). Run from the repository root.
set -euo pipefail
out=$1; D=models/learned/dataset
M=bench/head_to_head_results/2026-12-03_s55/calibration/machine_zen4.json
mkdir -p "$out"
for f in 2026-11-27/samples 2026-11-27/near_optimal_samples 2026-11-29b/layers_near_optimal_samples \
         2026-11-29c/round1_near_optimal_samples 2026-11-29c/round2_near_optimal_samples \
         2026-11-29c/round1_layers_near_optimal_samples 2026-11-29c/round2_layers_near_optimal_samples \
         2026-11-29/samples_512_1024 2026-11-30/apps_samples 2026-11-27/autotune_apps_samples \
         2026-11-27/autotune_apps_samples_s32; do
  n=$(echo $f | tr / _)
  zcat $D/$f.jsonl.gz > "$out/raw_$n.jsonl"
  build/bin/candor_refeaturize "$out/raw_$n.jsonl" "$out/$n.jsonl" --machine $M
  rm "$out/raw_$n.jsonl"
done
cat "$out"/2026-11-27_autotune_apps_samples.jsonl "$out"/2026-11-27_autotune_apps_samples_s32.jsonl > "$out/tuned_apps.jsonl"
cat "$out"/2026-11-27_samples.jsonl "$out"/2026-11-27_near_optimal_samples.jsonl "$out"/2026-11-29b_layers_near_optimal_samples.jsonl \
    "$out"/2026-11-29c_round{1,2}_near_optimal_samples.jsonl "$out"/2026-11-29c_round{1,2}_layers_near_optimal_samples.jsonl \
    > "$out/free.jsonl"
