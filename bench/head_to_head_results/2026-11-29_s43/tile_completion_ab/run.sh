#!/bin/bash
# Tile completion A/B: each app's 30 s model-only pick by the analytic model that completes
# undecided tiles by their stage's cost (NEW binary) against the pick of the model that
# guesses the largest tile (OLD binary), side by side in one `candor measure` process.
# Usage: run.sh OLD NEW OUT [APP...]; run from the repository root.
set -euo pipefail
old=$1 new=$2 out=$3
shift 3
mkdir -p "$out"
export CANDOR_MACHINE=${CANDOR_MACHINE:-models/learned/dataset/2026-11-29/machine.json}
apps=("$@")
[ ${#apps[@]} -gt 0 ] || apps=($("$new" apps | awk '{print $1}'))
for app in "${apps[@]}"; do
  "$new" search "$app" --budget time=30s --json 2>/dev/null | tail -1 > "$out/$app.new.json"
  "$old" search "$app" --budget time=30s --json 2>/dev/null | tail -1 > "$out/$app.old.json"
  python3 -c '
import json, sys
for f in sys.argv[1:]: print(json.dumps(json.load(open(f))["schedule_json"]))' "$out/$app.new.json" "$out/$app.old.json" > "$out/$app.pair.jsonl"
  "$new" measure "$app" --schedules "$out/$app.pair.jsonl" --interleave --json 2>/dev/null |
    python3 -c '
import json, sys
app, new, old = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
rs = [json.loads(l) for l in sys.stdin]
ratio = round(1 / rs[1]["ratio_to_first"], 3) if rs[1].get("ratio_to_first") else rs[1].get("error", "")[:80]
print(app, "new/old =", ratio, "ms", [round(r.get("runtime_ms", 0), 3) for r in rs],
      "predicted", round(new["predicted_ms"], 3), round(old["predicted_ms"], 3), "nodes", new["nodes"], old["nodes"], flush=True)' \
      "$app" "$out/$app.new.json" "$out/$app.old.json" | tee -a "$out/ratios.txt"
done
