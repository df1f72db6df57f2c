#!/bin/sh
# The plugin on random pipeline 97 with every decision but a few pinned to a structure that
# Halide 14 miscompiles (bench/head_to_head_results/2026-11-27_s30/README.md: loop
# partitioning deletes the pipeline's body): unchecked, the plugin's pick gives a wrong
# output; checked, the plugin passes over the failing schedules and emits one that matches.
#   fallback_past_miscompile.sh PLUGIN_ON_APP PINS_FILE
set -u
run="$1"
pins="$(cat "$2")"
export CANDOR_PINS="$pins" CANDOR_BUDGET=time=20s

unchecked="$(CANDOR_VERIFY=0 "$run" random:97 2>&1)"
echo "$unchecked"
echo "$unchecked" | grep -q "random:97: the schedule the plugin applied differs from the reference" || {
  echo "FAIL: without the check, the pinned pick was expected to be miscompiled"; exit 1; }

checked="$("$run" random:97 2>&1)"
status=$?
echo "$checked"
[ "$status" -eq 0 ] || { echo "FAIL: plugin_on_app exited with $status"; exit 1; }
echo "$checked" | grep -q "schedule #1 of the model's best: verify: output 0 differs" || {
  echo "FAIL: the check did not report the miscompiled pick"; exit 1; }
echo "$checked" | grep -q "verified on synthetic inputs[a-z0-9 ]*: schedule #[2-4] of the model's best" || {
  echo "FAIL: the plugin did not fall back to a later schedule"; exit 1; }
echo "$checked" | grep -q "random:97: the schedule the plugin applied matches the reference" || {
  echo "FAIL: the emitted schedule does not match the reference"; exit 1; }
echo "PASS"
