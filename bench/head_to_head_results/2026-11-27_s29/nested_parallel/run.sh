#!/bin/bash
# Side by side, 3 processes each: an app's tuned pick (first line of nested_APP.jsonl) against
# the same schedule with the next loop of its outer band parallel too (nested parallelism,
# the nearest the bridge gets to Adams2019's fused parallel tiles). Run from the repo root.
here=$(dirname "$0")
for app in depthwise_separable_conv conv_relu lens_blur; do
  for p in 1 2 3; do
    build/bin/candor measure $app --schedules "$here/nested_$app.jsonl" --interleave --min-seconds 2 --json 2>/dev/null |
      python3 -c "import sys,json; print('$app', $p, [round(json.loads(l).get('ratio_to_first',0),3) for l in sys.stdin])"
  done
done
