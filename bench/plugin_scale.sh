#!/bin/bash
# How the plugin scales with the size of the pipeline, against its time budget: the corpus's
# residual network (tests/plugin/corpus_generators.cpp, corpus_residual_net blocks=N, 13
# Funcs a block) through the plugin as a generator runs it, for N blocks each. Prints per size
# the Funcs, the seconds to describe the pipeline, the plugin's total (from its own lines),
# the whole generator's wall time (Halide's final compile included), peak memory, the plugin
# total over the budget, and how the schedule was found (searched whole or in groups,
# verified, or the reference schedule).
#
#   bench/plugin_scale.sh [--budget SECONDS] [BLOCKS...]     (default: 30 s; 2 8 15 38)
set -euo pipefail
budget=30
if [[ ${1:-} == --budget ]]; then budget=$2; shift 2; fi
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(2 8 15 38)
build=${CANDOR_BUILD:-build}
generator=$build/bin/plugin_corpus_generators
plugin=$build/lib/libautoschedule_candor.so
[[ -x $generator && -f $plugin ]] || { echo "plugin_scale: build $generator and $plugin first" >&2; exit 2; }
target=$("$build/bin/candor" target)-no_runtime
machine=${CANDOR_MACHINE:-tests/machines/zen4_epyc.json}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf '%-7s %-6s %-11s %-13s %-8s %-8s %-10s %s\n' blocks funcs describe_s plugin_total_s wall_s peak_mb total/budget outcome
for blocks in "${sizes[@]}"; do
  log=$work/$blocks.log
  /usr/bin/time -f "wall %e peak_kb %M" env CANDOR_BUDGET="time=${budget}s" CANDOR_MACHINE="$machine" \
    "$generator" -g corpus_residual_net blocks="$blocks" -o "$work" -e static_library,c_header \
    -p "$plugin" -s Candor auto_schedule=true target="$target" > "$log" 2>&1 || true
  funcs=$(sed -n 's/.* \([0-9]*\) Funcs described in \([0-9.]*\) s.*/\1/p' "$log" | head -1)
  describe=$(sed -n 's/.* Funcs described in \([0-9.]*\) s.*/\1/p' "$log" | head -1)
  total=$(sed -n 's/.*(plugin total \([0-9.]*\) s).*/\1/p' "$log" | tail -1)
  wall=$(sed -n 's/^wall \([0-9.]*\) peak_kb.*/\1/p' "$log")
  peak=$(sed -n 's/.*peak_kb \([0-9]*\).*/\1/p' "$log")
  if grep -q '; verified on synthetic inputs' "$log"; then
    grep -q ' groups of at most ' "$log" && outcome="searched in groups, verified" || outcome="searched whole, verified"
  else
    outcome="reference schedule: $(sed -n 's/^\[candor\] warning: \(.*\); emitting the reference schedule.*/\1/p' "$log" | head -1)"
  fi
  grep -q 'Candor autoscheduler:' "$log" && outcome="error: $(grep -o 'Candor autoscheduler: .*' "$log" | head -1)"
  ratio=$(awk -v t="${total:-0}" -v b="$budget" 'BEGIN { printf "%.2f", t / b }')
  printf '%-7s %-6s %-11s %-13s %-8s %-8s %-10s %s\n' "$blocks" "${funcs:-?}" "${describe:-?}" "${total:-?}" \
    "${wall:-?}" "$(( ${peak:-0} / 1024 ))" "$ratio" "$outcome"
done
