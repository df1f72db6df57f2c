#!/bin/bash
# pins2sched.sh APP OUT.jsonl PINS... : each pins file's greedy completion; its schedule JSON
# appended to OUT.jsonl, its name and price printed.
# From the repository root; BIN: the candor binary; CANDOR_MACHINE: the calibration.
export CANDOR_MACHINE=${CANDOR_MACHINE:-models/learned/dataset/2026-12-01/machine.json}
app=$1; out=$2; shift 2; : > "$out"; : > "$out.names"
for f in "$@"; do
  args=(); while read -r l; do [ -n "$l" ] && args+=(--pin "$l"); done < "$f"
  ${BIN:-build/bin/candor} search "$app" --search greedy "${args[@]}" --json 2>/dev/null | tail -1 > /tmp/p2s.json
  python3 -c 'import json,sys; j=json.load(open("/tmp/p2s.json")); print(json.dumps(j["schedule_json"]), file=open(sys.argv[1],"a")); print(sys.argv[2], round(j["predicted_ms"],4), j["runtime_ms"])' "$out" "$(basename $f)"
  basename "$f" >> "$out.names"
done
