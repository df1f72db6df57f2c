#!/usr/bin/env bash
# The learned model's bag from the dataset in the repository (models/learned/README.md, "Training
# (reproducible)"), as stops 59-62 trained it: every training pool refeaturized with this build's featurization and analytic
# model, on the Zen 4 machine description they were measured with (dataset/zen4_machine.json),
# then a bag of four members (train_bagged.sh, prior weight 30) and its evaluation on the
# held-out random pipelines, the example apps and the apps' near-optimal pairs (OUT.eval.json).
# About 13 minutes on two cores.
#   models/learned/train_from_dataset.sh OUT   (models/learned/weights.json makes it the default model)
# Run from anywhere; needs build/bin/candor and build/bin/candor_refeaturize. The pools and the
# bag's members (with their logs) stay in build/learned_pools.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: train_from_dataset.sh OUT}
data=models/learned/dataset machine=models/learned/dataset/zen4_machine.json
for tool in build/bin/candor build/bin/candor_refeaturize; do
  [ -x "$tool" ] || { echo "train_from_dataset.sh: error: $tool is missing (run scripts/setup.sh)" >&2; exit 1; }
done
pools=build/learned_pools  # the refeaturized pools and the bag's members, with their logs
rm -rf "$pools" && mkdir -p "$pools"
refeaturize() {  # refeaturize NAME...: dataset/NAME.jsonl.gz -> $pools/NAME (slashes as _).jsonl
  for name in "$@"; do
    local flat=${name//\//_}
    zcat "$data/$name.jsonl.gz" > "$pools/raw_$flat.jsonl"
    build/bin/candor_refeaturize "$pools/raw_$flat.jsonl" "$pools/$flat.jsonl" --machine "$machine" >&2
    rm "$pools/raw_$flat.jsonl"
  done
}
training=(2026-11-27/samples 2026-11-27/near_optimal_samples 2026-11-29b/layers_near_optimal_samples
          2026-11-29c/round1_near_optimal_samples 2026-11-29c/round2_near_optimal_samples
          2026-11-29c/round1_layers_near_optimal_samples 2026-11-29c/round2_layers_near_optimal_samples)
refeaturize "${training[@]}" 2026-11-29/samples_512_1024 2026-11-30/apps_samples \
  2026-11-27/autotune_apps_samples 2026-11-27/autotune_apps_samples_s32
for name in "${training[@]}"; do cat "$pools/${name//\//_}.jsonl"; done > "$pools/training.jsonl"
cat "$pools"/2026-11-27_autotune_apps_samples{,_s32}.jsonl > "$pools/tuned_apps.jsonl"
models/learned/train_bagged.sh "$pools/bag.json" --samples "$pools/training.jsonl" --prior-weight 30 --quiet
cp "$pools/bag.json" "$out"
# Held out: the training pools' pipelines whose seed % 5 == 0 (train.py's rule) and the
# 512-1024-pixel pipelines'; the apps never trained on.
eval_args=(--samples "$pools/2026-11-27_samples.jsonl" --samples "$pools/2026-11-29_samples_512_1024.jsonl"
           --apps-samples "$pools/2026-11-30_apps_samples.jsonl" --near-optimal-samples "$pools/tuned_apps.jsonl"
           --no-speed --machine "$machine" --weights "$out")
build/bin/candor model eval "${eval_args[@]}" --json > "$out.eval.json"
build/bin/candor model eval "${eval_args[@]}"
