#!/usr/bin/env bash
# Builds the libFuzzer harnesses of tests/fuzz with clang and the address and
# undefined-behaviour sanitizers (in build-fuzz/), and runs each for SECONDS (default 60) on a
# corpus seeded from the repository's specs, blocks and schedules. Exits 1 when a harness
# finds a crash, a leak, a sanitizer report, an input slower than 10 s (a hang) or one that
# needs more than 2 GiB; the input is left in build-fuzz/artifacts/ (make it a regression test).
#   scripts/fuzz.sh [SECONDS] [HARNESS...]   (harnesses: spec bb schedule_json)
#   FUZZ_PARALLEL=1 scripts/fuzz.sh 3600      (every harness at once, an hour each)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(spec bb schedule_json)

scripts/install_packages.sh clang libclang-rt-14-dev

build=build-fuzz
mkdir -p "$build"
cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCANDOR_FUZZ=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" --target $(printf 'fuzz_%s ' "${harnesses[@]}")

seed() {  # seed HARNESS DIR: the repository's inputs of that kind
  case $1 in
    spec) cp spaces/*.space tests/dsl/specs/*.space tests/dsl/errors/*.space tests/dslc/specs/*.space \
             tests/dslc/golden/*.space "$2"/ ;;
    bb) cp examples/blocks/*.bb "$2"/ ;;
    schedule_json) FUZZ_WRITE_SEEDS="$2" "$build/bin/fuzz_schedule_json" -runs=0 > /dev/null 2>&1 ;;
  esac
}

# run HARNESS: fuzzes one harness; its summary goes to build-fuzz/fuzz_HARNESS.summary.
run() {
  local h=$1 corpus="$build/corpus/$1" log="$build/fuzz_$1.log" dict=()
  mkdir -p "$corpus"
  seed "$h" "$corpus"
  [ -f "tests/fuzz/$h.dict" ] && dict=(-dict="tests/fuzz/$h.dict")
  echo "fuzz.sh: fuzz_$h for ${seconds} s ($(ls "$corpus" | wc -l) inputs in its corpus)"
  if "$build/bin/fuzz_$h" "$corpus" "${dict[@]}" -max_total_time="$seconds" -timeout=10 \
       -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 -artifact_prefix="$build/artifacts/${h}-" \
       > "$log" 2>&1; then
    local runs
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "fuzz.sh: fuzz_$h: no crash, no hang in ${runs:-?} runs over ${seconds} s ($(ls "$corpus" | wc -l) corpus inputs)" \
      | tee "$build/fuzz_$h.summary"
  else
    echo "fuzz.sh: fuzz_$h FAILED; the input is in $build/artifacts/; the end of its log:" | tee "$build/fuzz_$h.summary"
    tail -40 "$log"
    return 1
  fi
}

# FUZZ_PARALLEL=1 runs the harnesses side by side (each for SECONDS of wall time).
mkdir -p "$build/artifacts"
status=0
if [ "${FUZZ_PARALLEL:-0}" = 1 ]; then
  pids=()
  for h in "${harnesses[@]}"; do run "$h" & pids+=($!); done
  for pid in "${pids[@]}"; do wait "$pid" || status=1; done
else
  for h in "${harnesses[@]}"; do run "$h" || status=1; done
fi
exit $status
