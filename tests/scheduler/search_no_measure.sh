#!/bin/sh
# `candor search --no-measure` prices the same pick as a measured search, and measures nothing:
# no runtime, not verified. With --autotune it is an error. Its JSON names the ranking model:
# the shipped learned one by default, the analytic one under CANDOR_MODEL=analytic.
set -eu
unset CANDOR_MODEL
candor=$1 machine=$2 out=$3
rm -rf "$out"
mkdir -p "$out"
cd "$out"
"$candor" search box_blur --search greedy --json --runs 1 --timing-lock none --machine "$machine" > measured.json
"$candor" search box_blur --search greedy --json --no-measure --timing-lock none --machine "$machine" > priced.json
CANDOR_MODEL=analytic "$candor" search box_blur --search greedy --json --no-measure --timing-lock none \
  --machine "$machine" > analytic.json
python3 - <<'PY'
import json
measured, priced = json.load(open("measured.json")), json.load(open("priced.json"))
assert measured["verified"] is True and measured["runtime_ms"] > 0, measured
assert priced["verified"] is False and priced["runtime_ms"] is None and priced["measured"] is False, priced
for key in ("predicted_ms", "schedule", "pins"):
    assert priced[key] == measured[key], key
# The shipped learned model ranks unless CANDOR_MODEL=analytic.
assert priced["cost_model"] == "learned", priced["cost_model"]
analytic = json.load(open("analytic.json"))
assert analytic["cost_model"] == "analytic", analytic["cost_model"]
PY
if "$candor" search box_blur --search greedy --no-measure --autotune 2 --machine "$machine" 2> both.err; then
  echo "--no-measure --autotune 2 was accepted" >&2
  exit 1
fi
grep -q -E -- "--(no-measure|autotune) excludes --(autotune|no-measure)" both.err
