#!/bin/bash
# price.sh APP RESULT.json [--explain]: the model's price (CANDOR_MODEL; unset: analytic) of a
# `candor search --json` result's pins, nothing measured (CANDOR_MACHINE: the machine
# description). Run from the repository root.
app=$1 res=$2; shift 2
args=(); for p in $(python3 -c "import json;print(' '.join(json.load(open('$res'))['pins']))"); do args+=(--pin "$p"); done
if [ "${1:-}" = --explain ]; then
  build/bin/candor search $app --search greedy "${args[@]}" --no-measure --explain --timing-lock none | sed -n '/^stage (analytic/,$p'
else
  build/bin/candor search $app --search greedy "${args[@]}" --json --no-measure --timing-lock none | python3 -c 'import json,sys; print(round(json.load(sys.stdin)["predicted_ms"], 3))'
fi
