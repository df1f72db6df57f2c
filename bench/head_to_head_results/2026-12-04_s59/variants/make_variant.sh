#!/bin/bash
# make_variant.sh APP NAME BASE.json OTHER.json [SUBSTRING | CHOICE=VALUE]...: BASE's pins, with every
# choice whose name contains one of the substrings taken from OTHER and each CHOICE=VALUE set (variant.py;
# NONE: BASE unchanged), completed by a greedy search under the analytic model. Writes OUT/APP.NAME.json
# (OUT defaults to /tmp/variants) and prints its price. BASE and OTHER are `candor search --json` results.
# Run from the repository root, with CANDOR_MACHINE set.
#   make_variant.sh max_filter A_wide A.json B.json 'tile(max_filter.x)'     # one choice from B
#   make_variant.sh camera_pipe A_serial A.json A.json 'parallel(camera_pipe)=NO'
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/variants}
app=$1 name=$2 base=$3 other=$4; shift 4
mkdir -p "$out"
args=(); while read -r p; do args+=(--pin "$p"); done < <(python3 "$here/variant.py" "$base" "$other" "$@")
CANDOR_MODEL=analytic build/bin/candor search "$app" --search greedy "${args[@]}" --json --runs 1 2>/dev/null | tail -1 > "$out/$app.$name.json"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[2], 'priced', round(d['predicted_ms'], 3))" "$out/$app.$name.json" "$name"
