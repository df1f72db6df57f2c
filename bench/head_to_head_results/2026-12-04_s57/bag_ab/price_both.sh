#!/bin/bash
# price_both.sh APP RESULT.json... : each result's pins (completed greedily) priced by the analytic model and by the
# weights BAG (default bag.json), under the calibration MACHINE; run from the repository root
app=$1; shift
for f in "$@"; do
  python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["pins"]))' $f > "${TMPDIR:-/tmp}/price_both.pins"
  args=(); while read -r l; do [ -n "$l" ] && args+=(--pin "$l"); done < "${TMPDIR:-/tmp}/price_both.pins"
  a=$(CANDOR_MODEL=analytic build/bin/candor search $app --machine ${MACHINE:-bench/head_to_head_results/2026-12-03_s55/calibration/machine_zen4.json} --search greedy "${args[@]}" --json 2>/dev/null | tail -1 | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("predicted_ms", d.get("predicted_s")))')
  l=$(CANDOR_MODEL=${BAG:-bag.json} build/bin/candor search $app --machine ${MACHINE:-bench/head_to_head_results/2026-12-03_s55/calibration/machine_zen4.json} --search greedy "${args[@]}" --json 2>/dev/null | tail -1 | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("predicted_ms", d.get("predicted_s")))')
  echo "$(basename $f) analytic $a learned $l"
done
