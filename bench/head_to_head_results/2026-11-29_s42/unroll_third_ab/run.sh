#!/bin/bash
# unroll_third A/B: each app's 30 s model-only pick in the space with two-loop register tiles
# against the pick with unroll_third pinned NO on every stage (the space before), side by side
# in two fresh processes. Run from the repository root after a build; OUT default /tmp/ab2d.
set -euo pipefail
out=${1:-/tmp/ab2d}
shift || true
mkdir -p "$out"
export CANDOR_MACHINE=${CANDOR_MACHINE:-models/learned/dataset/2026-11-29/machine.json}
apps=("$@")
[ ${#apps[@]} -gt 0 ] || apps=($(build/bin/candor apps | awk '{print $1}'))
for app in "${apps[@]}"; do
  build/bin/candor search "$app" --budget time=30s --json 2>/dev/null | tail -1 > "$out/$app.new.json"
  pins=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("--pin " + p.split("=")[0] + "=NO" for p in d["pins"] if p.startswith("unroll_third(")))' "$out/$app.new.json")
  used=$(python3 -c '
import json, sys
print(sum(p.startswith("unroll_third(") and p.endswith("=YES") for p in json.load(open(sys.argv[1]))["pins"]))' "$out/$app.new.json")
  if [ "$used" = 0 ]; then echo "$app: pick uses no two-loop tile"; continue; fi
  build/bin/candor search "$app" --budget time=30s --json $pins 2>/dev/null | tail -1 > "$out/$app.old.json"
  python3 -c '
import json, sys
for f in sys.argv[1:]: print(json.dumps(json.load(open(f))["schedule_json"]))' "$out/$app.new.json" "$out/$app.old.json" > "$out/$app.pair.jsonl"
  for process in 1 2; do
    build/bin/candor measure "$app" --schedules "$out/$app.pair.jsonl" --interleave --json 2>/dev/null |
      python3 -c '
import json, sys
app, used = sys.argv[1], sys.argv[2]
rs = [json.loads(l) for l in sys.stdin]
ratio = round(1 / rs[1]["ratio_to_first"], 3) if rs[1].get("ratio_to_first") else rs[1].get("error", "")[:80]
print(app, "tiles:", used, "new/old =", ratio, [round(r["runtime_ms"], 3) for r in rs])' "$app" "$used"
  done
done
