#!/bin/bash
# price2.sh DIR APP: both picks of a model_ab.sh run (DIR/APP.json, DIR/APP.base.json), each
# completed greedily from its pins and priced by the analytic model and by the weights W.
# From the repository root; CANDOR_MACHINE: the calibration.
for f in "$1/$2.json" "$1/$2.base.json"; do
  args=(); while read -r l; do [ -n "$l" ] && args+=(--pin "$l"); done < <(python3 -c 'import json,sys; [print(p) for p in json.load(open(sys.argv[1]))["pins"]]' "$f")
  for m in analytic "$W"; do
    p=$(CANDOR_MODEL=$m build/bin/candor search "$2" --machine "$CANDOR_MACHINE" --search greedy "${args[@]}" --json 2>/dev/null |
        tail -1 | python3 -c 'import json,sys; print(round(json.load(sys.stdin)["predicted_ms"],4))')
    echo "$(basename "$f") $(basename "$m") $p"
  done
done
