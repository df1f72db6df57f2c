#!/bin/sh
# `candor search --explain`: the analytic model's terms per stage, and each Func's analytic
# time next to the time Halide's profiler measured in it (text and --json `profile`).
set -eu
unset CANDOR_MODEL
candor=$1 machine=$2 out=$3
rm -rf "$out"
mkdir -p "$out"
cd "$out"
common="--budget time=2s --runs 1 --timing-lock none --machine $machine"
# shellcheck disable=SC2086
"$candor" search unsharp_mask $common --explain > explain.txt
grep -q '^func (Halide.s profiler) *analytic ms *measured ms' explain.txt
grep -q '^pipeline  .*samples over [0-9]* runs' explain.txt
# shellcheck disable=SC2086
"$candor" search unsharp_mask $common --explain --json > explain.json
python3 - <<'PY'
import json
j = json.load(open("explain.json"))
p = j["profile"]
assert p["samples"] > 0 and p["measured_ms"] > 0 and p["analytic_ms"] > 0, p
funcs = {f["func"]: f for f in p["funcs"]}
assert "unsharp" in "".join(funcs), funcs
measured = [f for f in p["funcs"] if f["measured_ms"] is not None]
assert measured, "the profiler measured no Func the model prices"
PY
