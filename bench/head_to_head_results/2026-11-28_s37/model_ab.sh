#!/bin/bash
# Stop 37's model change (the join delay), app by app: s37m's model-only pick against s36m's
# (the model before the change), timed side by side in three fresh processes; apps whose
# pick did not change are skipped. Each OUT/APP.pair.jsonl holds the two schedules (the new
# pick first); the ratio printed is new / s36m (median over interleaved rounds).
# Usage, from the repository root: bench/head_to_head_results/2026-11-28_s37/model_ab.sh S37M_FOLDER [OUT]
set -euo pipefail
new=$1/schedules
out=${2:-/tmp/s37_model_ab}
mkdir -p "$out"
here=bench/head_to_head_results
for app in $(build/bin/candor apps | awk '{print $1}'); do
  old=$here/2026-11-28_s36/model_only/schedules/$app.candor.json
  [ -f "$old" ] || old=$here/2026-11-28_s35/model_only/schedules/$app.candor.json
  [ -f "$new/$app.candor.json" ] || continue
  if python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1])) != json.load(open(sys.argv[2])))' \
      "$new/$app.candor.json" "$old"; then
    echo "$app unchanged"
    continue
  fi
  for f in "$new/$app.candor.json" "$old"; do
    python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))))' "$f"
  done > "$out/$app.pair.jsonl"
  for process in 1 2 3; do
    build/bin/candor measure "$app" --schedules "$out/$app.pair.jsonl" --interleave --json 2>/dev/null |
      python3 -c '
import json, sys
app = sys.argv[1]
rs = [json.loads(l) for l in sys.stdin]
ratio = round(1 / rs[1]["ratio_to_first"], 3) if rs[1].get("ratio_to_first") else rs[1].get("error", "")[:80]
print(app, "new/s36m =", ratio, [round(r["runtime_ms"], 3) for r in rs])' "$app"
  done
done
