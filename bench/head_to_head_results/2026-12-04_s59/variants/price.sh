#!/bin/bash
# price.sh APP RESULT.json MODEL [--explain]: the model's price of the result's pins (CANDOR_MACHINE: the machine description); run from the repository root
app=$1 res=$2 model=$3; shift 3
args=(); for p in $(python3 -c "import json;print(' '.join(json.load(open('$res'))['pins']))"); do args+=(--pin "$p"); done
if [ "${1:-}" = --explain ]; then
  CANDOR_MODEL=$model build/bin/candor search $app --search greedy "${args[@]}" --explain --timing-lock none 2>&1 | sed -n '/^stage (analytic/,$p'
else
  CANDOR_MODEL=$model build/bin/candor search $app --search greedy "${args[@]}" --json --timing-lock none 2>/dev/null | tail -1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["predicted_ms"])'
fi
