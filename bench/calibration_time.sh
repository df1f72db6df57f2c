#!/bin/bash
# Calibration time against its 30 s budget (2 cores), side by side in one run: on this host as
# it is, on a simulated virtual machine whose sysfs shows no caches (CANDOR_SYSFS_CPU_DIR at an
# empty directory: sizes from CPUID), and on one whose sysfs reports a 512 MiB L3 (the host's
# whole L3, as some hypervisors pass it on), by default and with --thorough. Each case runs
# ROUNDS times, alternating; prints the median calibration_seconds, its ratio to the budget,
# and whether every file is complete (check_machine: the calibrator's exit status).
#
#   bench/calibration_time.sh [--rounds N] [--no-thorough]
set -euo pipefail
rounds=3
thorough=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --no-thorough) thorough=0; shift ;;
    *) echo "calibration_time: unknown option $1" >&2; exit 2 ;;
  esac
done
calibrate=${CANDOR_CALIBRATE:-build/bin/candor_calibrate}
budget=30
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/no_caches"
# A sysfs cache tree: L1d and L2 as this host reports them, a 512 MiB L3.
big=$work/big_l3/cpu0/cache
l1=$(getconf LEVEL1_DCACHE_SIZE); l2=$(getconf LEVEL2_CACHE_SIZE)
index() {  # N LEVEL TYPE BYTES WAYS
  mkdir -p "$big/index$1"
  echo "$2" > "$big/index$1/level"; echo "$3" > "$big/index$1/type"; echo "$(($4 / 1024))K" > "$big/index$1/size"
  echo "$5" > "$big/index$1/ways_of_associativity"; echo 64 > "$big/index$1/coherency_line_size"
  echo $(($4 / $5 / 64)) > "$big/index$1/number_of_sets"
}
index 0 1 Data "$l1" 8; index 1 2 Unified "$l2" 8; index 2 3 Unified $((512 << 20)) 16

cases=("host" "no_sysfs_caches" "l3_512mib")
dirs=("" "$work/no_caches" "$work/big_l3")
flags=("" "" "")
if [[ $thorough == 1 ]]; then
  cases+=("l3_512mib_thorough"); dirs+=("$work/big_l3"); flags+=("--thorough")
fi
declare -A seconds complete
for ((r = 0; r < rounds; ++r)); do
  for i in "${!cases[@]}"; do
    out=$work/${cases[$i]}_$r.json
    status=0
    if [[ -n ${dirs[$i]} ]]; then
      CANDOR_SYSFS_CPU_DIR=${dirs[$i]} "$calibrate" -q ${flags[$i]} --out "$out" > /dev/null || status=$?
    else
      "$calibrate" -q ${flags[$i]} --out "$out" > /dev/null || status=$?
    fi
    s=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['calibration_seconds'])" "$out")
    seconds[${cases[$i]}]+="$s "
    [[ $status == 0 ]] || complete[${cases[$i]}]=no
    echo "calibration_time: round $((r + 1))/$rounds ${cases[$i]}: ${s%.*} s" >&2
  done
done
printf "%-22s %12s %14s %9s\n" case median_s ratio_to_30s complete
for c in "${cases[@]}"; do
  python3 - "$c" "${complete[$c]:-yes}" $budget ${seconds[$c]} <<'PY'
import statistics, sys
name, complete, budget, *s = sys.argv[1:]
m = statistics.median(map(float, s))
print(f"{name:22s} {m:12.1f} {m / float(budget):14.2f} {complete:>9s}")
PY
done
