#!/bin/bash
# price_pins.sh APP PINS... : the analytic model's price (ms) of each pins file's greedy
# completion (`candor search --pin ... --explain`), from the repository root.
# BIN: the candor binary (default build/bin/candor); CANDOR_MACHINE: the calibration.
export CANDOR_MACHINE=${CANDOR_MACHINE:-models/learned/dataset/2026-12-01/machine.json}
app=$1; shift
for f in "$@"; do
  args=()
  while read -r l; do [ -n "$l" ] && args+=(--pin "$l"); done < "$f"
  echo "$(basename "$f"): $(timeout 300 "${BIN:-build/bin/candor}" search "$app" --machine "$CANDOR_MACHINE" --search greedy \
    "${args[@]}" --explain 2>&1 | grep '^pipeline (ms)' | awk '{print $NF}')"
done
