#!/usr/bin/env bash
# An hour (or SECONDS) of fuzzing for each harness of tests/fuzz, side by side, at low
# priority; prints each harness's runs and findings (bench/fuzz.md holds the last figures).
#   bench/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZ_PARALLEL=1 nice -n 10 scripts/fuzz.sh "${1:-3600}"
