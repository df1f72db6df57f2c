#!/bin/bash
# The same node-budget search under the model before (a worktree of e259f7b at /work/old,
# built; the calibration of 2026-12-01) and after (/work/main; the same calibration with the
# reorder window stop 52 measured), so that only the model differs. Prints both
# picks' predicted ms, whether they are the same schedule, and the measured ratio new / old
# in two processes side by side. APP.pair.jsonl holds the two schedules, the new pick first.
OLD_M=/work/main/models/learned/dataset/2026-12-01/machine.json
NEW_M=${NEW_M:-/work/main/models/learned/dataset/2026-12-01/machine.json}
out=${OUT:-$(dirname $0)}
for a in "$@"; do
  n=20000; [ $a = camera_pipe ] && n=5000
  (cd /work/old && CANDOR_MODEL=analytic build/bin/candor search $a --machine $OLD_M --budget nodes=$n --json 2>/dev/null | tail -1 > $out/$a.old.json)
  (cd /work/main && CANDOR_MODEL=analytic build/bin/candor search $a --machine $NEW_M --budget nodes=$n --json 2>/dev/null | tail -1 > $out/$a.new.json)
  python3 - $a $out <<'P'
import json,sys
a,out=sys.argv[1],sys.argv[2]
o=json.load(open(f'{out}/{a}.old.json')); n=json.load(open(f'{out}/{a}.new.json'))
same = o['schedule_json']==n['schedule_json']
print(a, 'old', round(o['predicted_ms'],4), 'new', round(n['predicted_ms'],4), 'same pick' if same else 'DIFFERENT pick', 'nodes', o['nodes'], n['nodes'], flush=True)
with open(f'{out}/{a}.pair.jsonl','w') as f:
    f.write(json.dumps(n['schedule_json'])+'\n'+json.dumps(o['schedule_json'])+'\n')
open(f'{out}/{a}.same','w').write('1' if same else '0')
P
  if [ "$(cat $out/$a.same)" = 0 ]; then
    for p in 1 2; do
      (cd /work/main && build/bin/candor measure $a --schedules $out/$a.pair.jsonl --interleave --json --min-seconds 3 2>/dev/null) |
        python3 -c '
import json, sys
rs = [json.loads(l) for l in sys.stdin if l.strip()]
ratio = round(1 / rs[1]["ratio_to_first"], 3) if rs[1].get("ratio_to_first") else rs[1].get("error", "")[:80]
print(sys.argv[1], "new/old =", ratio, [round(r["runtime_ms"], 4) for r in rs], flush=True)' $a
    done
  fi
done
