#!/usr/bin/env bash
# The training machinery learns: train.py on synthetic samples of real random pipelines (the
# analytic model's prediction as runtime) reaches a high held-out R^2 and ordering accuracy,
# as `candor model eval` computes them from the weights it wrote. The app samples, put in one
# batch per app, also serve as near-optimal samples: the same pairs, so the same accuracy.
# The bag (train_bagged.sh) trains one member per validation fold (--validation-remainder),
# each on the rest of the training pipelines, reporting accuracy on its fold, which the
# synthetic target makes learnable too; the ensemble of the four learns it as well.
#   train_smoke.sh PYTHON3 SOURCE_DIR SYNTH CANDOR MACHINE_JSON WORK_DIR
set -euo pipefail
python=$1 src=$2 synth=$3 candor=$4 machine=$5 work=$6
if ! "$python" -c "import torch" 2>/dev/null; then
  echo "python3-torch is missing (scripts/setup.sh installs it)" >&2
  exit 1
fi
mkdir -p "$work"
"$synth" --out "$work/samples.jsonl" --seeds 0:25 --per-pipeline 12 --machine "$machine"
"$synth" --out "$work/apps.jsonl" --seeds 0:0 --apps unsharp_mask,harris --per-pipeline 12 --machine "$machine"
"$python" "$src/models/learned/train.py" --samples "$work/samples.jsonl" --out "$work/weights.json" \
  --epochs 150 --batches 4 --quiet
"$python" - "$work/apps.jsonl" "$work/apps_batched.jsonl" <<'PY'
import json, sys
with open(sys.argv[2], "w") as out:
    for line in open(sys.argv[1]):
        s = json.loads(line)
        s["batch"] = "process-of-" + s["pipeline"]
        out.write(json.dumps(s) + "\n")
PY
"$candor" model eval --samples "$work/samples.jsonl" --apps-samples "$work/apps.jsonl" \
  --near-optimal-samples "$work/apps_batched.jsonl" --weights "$work/weights.json" --no-speed --json > "$work/eval.json"
cat "$work/eval.json"
"$python" - "$work/eval.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
checks = {"heldout_r2_log": 0.9, "heldout_pairwise": 0.8, "apps_pairwise": 0.7}
bad = [f"{k} = {r[k]} < {v}" for k, v in checks.items() if not (r[k] is not None and r[k] >= v)]
if bad:
    sys.exit("training did not learn the synthetic target: " + "; ".join(bad))
near = r["near_optimal"]
if near["learned"] != r["apps"]["learned"] or sorted(near["per_app"]) != ["harris", "unsharp_mask"]:
    sys.exit("near-optimal accuracy of the app samples in one batch per app differs from their apps accuracy")
if r["near_optimal_pairwise"] != r["apps_pairwise"]:
    sys.exit("near_optimal_pairwise differs from apps_pairwise on the same pairs")
PY
PYTHON=$python JOBS=2 "$src/models/learned/train_bagged.sh" "$work/bagged.json" \
  --samples "$work/samples.jsonl" --epochs 150 --batches 4 --quiet
"$python" - "$work/weights.json" "$work/bagged.json" "$work/samples.jsonl" <<'PY'
import json, sys
full = json.load(open(sys.argv[1]))["provenance"]
bag = json.load(open(sys.argv[2]))
samples = [json.loads(line) for line in open(sys.argv[3])]
seeds = [s["seed"] for s in samples if s.get("ok") and (s.get("runtime_ms") or 0) > 0 and s.get("stages")]
if len(bag["members"]) != 4:
    sys.exit(f"the bag has {len(bag['members'])} members, not one per validation fold")
for remainder, member in enumerate(bag["members"], 1):
    fold = member["provenance"]
    in_fold = sum(1 for s in seeds if s % 5 == remainder)
    if not (fold["validation_samples"] == in_fold > 0 and fold["training_samples"] + in_fold == full["training_samples"]):
        sys.exit(f"validation fold {remainder}: {fold['validation_samples']} samples held from "
                 f"{fold['training_samples']} (expected {in_fold} of {full['training_samples']})")
    if fold["heldout_samples"] != full["heldout_samples"]:
        sys.exit(f"validation fold {remainder} changed the held-out set")
    if not fold["validation_pairwise"] >= 0.8 or not fold["validation_r2_log"] >= 0.9:
        sys.exit(f"validation fold {remainder} not learned: pairwise {fold['validation_pairwise']}, "
                 f"R2 {fold['validation_r2_log']}")
PY
"$candor" model eval --samples "$work/samples.jsonl" --apps-samples "$work/apps.jsonl" --weights "$work/bagged.json" \
  --no-speed --json > "$work/eval_bagged.json"
"$python" - "$work/eval_bagged.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
if not (r["heldout_r2_log"] >= 0.9 and r["heldout_pairwise"] >= 0.8):
    sys.exit(f"the bagged ensemble did not learn: R2 {r['heldout_r2_log']}, pairwise {r['heldout_pairwise']}")
PY
