#!/usr/bin/env bash
# An hour (or SECONDS) of fuzzing for each harness of tests/fuzz, side by side, at low
# priority; prints each harness's runs and findings and plots coverage against executions
# (build-fuzz/fuzz_coverage.png; bench/fuzz.md holds the last figures and plot).
#   bench/fuzz.sh [SECONDS]
set -uo pipefail
cd "$(dirname "$0")/.."
FUZZ_PARALLEL=1 nice -n 10 scripts/fuzz.sh "${1:-3600}"
status=$?
for h in spec bb schedule_json; do
  sed -n 's/^#\([0-9]*\)\t[A-Z]*[ \t]*cov: \([0-9]*\).*/\1 \2/p' "build-fuzz/fuzz_$h.log" > "build-fuzz/fuzz_$h.cov.dat"
done
gnuplot -e "dir='build-fuzz'; outfile='build-fuzz/fuzz_coverage.png'" bench/fuzz_plot.gp &&
  echo "bench/fuzz.sh: plot in build-fuzz/fuzz_coverage.png"
exit $status
