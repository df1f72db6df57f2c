#!/bin/bash
# edit_pins.sh APP NAME BASE.json CHOICE=VALUE...: BASE's pins with the given choices replaced, completed by a
# greedy search under the analytic model; writes OUT/APP.NAME.json (OUT defaults to /tmp/variants) and prints its
# price. Run from the repository root, with CANDOR_MACHINE set.
out=${OUT:-/tmp/variants}
app=$1 name=$2 base=$3; shift 3
mkdir -p "$out"
args=(); for p in $(python3 - "$base" "$@" <<'PY'
import json, sys
edits = dict(e.split('=', 1) for e in sys.argv[2:])
for p in json.load(open(sys.argv[1]))['pins']:
    k, v = p.split('=', 1)
    print(f"{k}={edits.get(k, v)}")
PY
); do args+=(--pin "$p"); done
CANDOR_MODEL=analytic build/bin/candor search "$app" --search greedy "${args[@]}" --json --runs 1 2>/dev/null | tail -1 > "$out/$app.$name.json"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[2], 'priced', round(d['predicted_ms'], 3))" "$out/$app.$name.json" "$name"
