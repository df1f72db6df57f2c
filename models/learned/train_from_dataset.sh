#!/usr/bin/env bash
# The learned model's bag from the dataset in the repository (models/learned/README.md, "Training
# (reproducible)"), as the shipped weights were trained: every training pool refeaturized with this
# build's featurization and analytic model (refeaturize_pools.sh), then a bag of four members
# (train_bagged.sh, prior weight 30) and its evaluation (eval_from_dataset.sh: OUT.eval.json,
# and printed). About 10 minutes on two cores.
#   models/learned/train_from_dataset.sh OUT   (models/learned/weights.json ships it: the default model)
# Run from anywhere; needs build/bin/candor and build/bin/candor_refeaturize. The pools and the
# bag's members (with their logs) stay in build/learned_pools.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: train_from_dataset.sh OUT [--machine-classes]}
# --machine-classes: also the random pipelines measured on the other machine classes of the
# dataset (Zen 3 AVX2, Xeon AVX-512), each refeaturized on its own machine description.
classes=0
[ "${2:-}" != --machine-classes ] || classes=1
[ -x build/bin/candor ] || { echo "train_from_dataset.sh: error: build/bin/candor is missing (run scripts/setup.sh)" >&2; exit 1; }
pools=build/learned_pools  # the refeaturized pools and the bag's members, with their logs
rm -rf "$pools"
training=(2026-11-27/samples 2026-11-27/near_optimal_samples 2026-11-29b/layers_near_optimal_samples
          2026-11-29c/round1_near_optimal_samples 2026-11-29c/round2_near_optimal_samples
          2026-11-29c/round1_layers_near_optimal_samples 2026-11-29c/round2_layers_near_optimal_samples)
[ $classes = 0 ] || training+=(2026-11-26/samples@2026-11-26/machine.json 2026-11-23/samples@2026-11-23/machine.json
                                 2026-11-23b/samples@2026-11-23b/machine.json)
models/learned/refeaturize_pools.sh "$pools" "${training[@]}"
for entry in "${training[@]}"; do name=${entry%@*}; cat "$pools/${name//\//_}.jsonl"; done > "$pools/training.jsonl"
models/learned/train_bagged.sh "$pools/bag.json" --samples "$pools/training.jsonl" --prior-weight 30 --quiet
cp "$pools/bag.json" "$out"
models/learned/eval_from_dataset.sh "$out" --json-out "$out.eval.json" --no-speed
