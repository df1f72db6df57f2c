#!/usr/bin/env bash
# Trains the learned model on the measured dataset and ships it (models/learned/weights.json,
# which makes it the default model of every search) only if `candor model eval` shows it
# orders schedules better than the analytic model on both the held-out random pipelines and
# the example apps. Prints both evaluations either way.
#
#   models/learned/model_ship.sh [CANDOR] [SAMPLES_DIR]
#     CANDOR       the candor binary (default build/bin/candor)
#     SAMPLES_DIR  the dataset (default data/): samples.jsonl, or shard-*.jsonl if not merged,
#                  and apps/samples.jsonl
set -euo pipefail
cd "$(dirname "$0")/../.."
candor=${1:-build/bin/candor}
data=${2:-data}

samples=()
if [ -f "$data/samples.jsonl" ]; then
  samples=("$data/samples.jsonl")
fi
for shard in "$data"/shard-*.jsonl; do
  [ -f "$shard" ] && samples+=("$shard")
done
if [ ${#samples[@]} -eq 0 ]; then
  echo "model_ship: error: no samples in $data (samples.jsonl or shard-*.jsonl)" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
train_args=()
eval_args=()
for s in "${samples[@]}"; do
  train_args+=(--samples "$s")
  eval_args+=(--samples "$s")
done
/usr/bin/python3 models/learned/train.py "${train_args[@]}" --out "$work/weights.json" --quiet
"$candor" model eval "${eval_args[@]}" --apps-samples "$data/apps/samples.jsonl" --weights "$work/weights.json" \
  --no-speed --json > "$work/eval.json"
"$candor" model eval "${eval_args[@]}" --apps-samples "$data/apps/samples.jsonl" --weights "$work/weights.json" \
  --no-speed
if /usr/bin/python3 - "$work/eval.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
a = r["analytic"]
better = all(r[k] is not None and (a[k] is None or r[k] > a[k]) for k in ("heldout_pairwise", "apps_pairwise"))
sys.exit(0 if better else 1)
PY
then
  cp "$work/weights.json" models/learned/weights.json
  echo "model_ship: the learned model ranks better than the analytic model: wrote models/learned/weights.json"
else
  echo "model_ship: the learned model does not rank better than the analytic model: weights not shipped" >&2
  exit 2
fi
