#!/bin/bash
# The same search under the model before (a worktree of d809f9a at /work/old, built) and after
# (/work/main at 4917f74), with a node budget so that only the model differs; prints both
# picks' predicted ms and whether they are the same schedule. The pairs (new first) are in
# APP.pair.jsonl.
M=/work/main/models/learned/dataset/2026-12-01/machine.json
for a in camera_pipe unsharp_mask non_local_means lens_blur; do
  n=5000; [ $a != camera_pipe ] && n=20000
  for v in old main; do
    (cd /work/$v && CANDOR_MODEL=analytic build/bin/candor search $a --machine $M --budget nodes=$n --json 2>/dev/null | tail -1 > /work/runs/s51/det/$a.$v.json)
  done
  python3 - $a <<'P'
import json,sys
a=sys.argv[1]
o=json.load(open(f'/work/runs/s51/det/{a}.old.json')); n=json.load(open(f'/work/runs/s51/det/{a}.main.json'))
print(a, 'old', round(o['predicted_ms'],4), 'new', round(n['predicted_ms'],4), 'same pick' if o['schedule_json']==n['schedule_json'] else 'DIFFERENT pick', 'nodes', o['nodes'], n['nodes'])
P
done
