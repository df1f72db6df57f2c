#!/bin/bash
# A model change, app by app: each app's fresh 30 s model-only pick against an earlier
# head-to-head's candor pick (BASE, a results folder's schedules/: the model before the
# change), or against a fresh pick of another model (BASE_MODEL, a CANDOR_MODEL value:
# "analytic" or a weights file), timed side by side in two fresh processes. The new pick
# uses the model CANDOR_MODEL selects (scheduler/cpu_objective.h). OUT/APP.pair.jsonl holds
# the two schedules (the new pick first); stdout has the ratios, new / base, one line a process.
# BASE_MACHINE (a machine description) gives the base pick its own calibration: a change of
# calibration, the model otherwise the same. BASE_BIN (a candor binary built before a change of
# the analytic model) makes the base pick with that build: the change against the code before it.
# Usage, from the repository root:
#   BASE=bench/head_to_head_results/DATE_sNN/schedules bench/model_ab.sh [OUT] [APP...]
#   CANDOR_MODEL=weights.json BASE_MODEL=analytic bench/model_ab.sh [OUT] [APP...]
#   CANDOR_MACHINE=new.json BASE_MACHINE=old.json BASE_MODEL=analytic bench/model_ab.sh [OUT] [APP...]
#   BASE_BIN=/tmp/candor_before BASE_MODEL=analytic bench/model_ab.sh [OUT] [APP...]
set -euo pipefail
out=${1:-/tmp/model_ab}
shift || true
mkdir -p "$out"
export CANDOR_MACHINE=${CANDOR_MACHINE:-data/machine_avx512.json}
base=${BASE:-bench/head_to_head_results/2026-11-27_s33/schedules}
if [ -n "${BASE_BIN:-}" ] && [ ! -x "$BASE_BIN" ]; then
  echo "model_ab.sh: error: BASE_BIN '$BASE_BIN' is not an executable" >&2
  exit 2
fi
apps=("$@")
[ ${#apps[@]} -gt 0 ] || apps=($(build/bin/candor apps | awk '{print $1}'))
# pick APP MODEL RESULT [MACHINE [BINARY]]: a fresh 30 s pick of APP under MODEL (a
# CANDOR_MODEL value), its search result written to RESULT and its schedule printed as one
# JSON line.
pick() {
  CANDOR_MODEL=$2 CANDOR_MACHINE=${4:-$CANDOR_MACHINE} "${5:-build/bin/candor}" search "$1" --budget time=30s --json \
    2>/dev/null | tail -1 > "$3"
  python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))["schedule_json"]))' "$3"
}
for app in "${apps[@]}"; do
  pick "$app" "${CANDOR_MODEL:-}" "$out/$app.json" > "$out/$app.pair.jsonl"
  if [ -n "${BASE_MODEL:-}" ]; then
    pick "$app" "$BASE_MODEL" "$out/$app.base.json" "${BASE_MACHINE:-}" "${BASE_BIN:-}" >> "$out/$app.pair.jsonl"
  else
    python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))))' "$base/$app.candor.json" \
      >> "$out/$app.pair.jsonl"
  fi
  for process in 1 2; do
    build/bin/candor measure "$app" --schedules "$out/$app.pair.jsonl" --interleave --json 2>/dev/null |
      python3 -c '
import json, sys
app = sys.argv[1]
rs = [json.loads(l) for l in sys.stdin]
ratio = round(1 / rs[1]["ratio_to_first"], 3) if rs[1].get("ratio_to_first") else rs[1].get("error", "")[:80]
print(app, "new/base =", ratio, [round(r["runtime_ms"], 3) for r in rs])' "$app"
  done
done
