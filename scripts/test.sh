#!/usr/bin/env bash
# Sets everything up, builds, and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# On a failure, the host's calibration too: the models' prices (and some tests' ratios) follow it.
ctest --test-dir build --output-on-failure -j "$(nproc)" "$@" || {
  echo "test.sh: tests failed; this host's calibration (build/machine.json):"
  cat build/machine.json 2>/dev/null || true
  exit 1
}
# The whole suite also fuzzes each reader of user input (spec, .bb, schedule JSON) for a
# minute, side by side.
if [ $# -eq 0 ]; then FUZZ_PARALLEL=1 scripts/fuzz.sh 60; fi
