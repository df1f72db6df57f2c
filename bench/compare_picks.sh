#!/bin/bash
# Paired comparison of the schedules candor picked in several head-to-head runs: for each app,
# measures every run's pick (bench_results/RUN/schedules/APP.candor.json) in one process, in
# turn, ROUNDS times (fresh processes), and prints each pick's runtimes and median. A single
# head-to-head cannot separate changes of 10-20% on this noisy machine; picks measured side by
# side can.
#
#   bench/compare_picks.sh [--rounds N] [--results DIR] RUN1,RUN2,... APP...
#   bench/compare_picks.sh s6d,s7b unsharp_mask conv_relu
set -euo pipefail
rounds=3
results=bench_results
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --results) results=$2; shift 2 ;;
    *) echo "compare_picks: unknown option $1" >&2; exit 2 ;;
  esac
done
if [[ $# -lt 2 ]]; then
  sed -n '2,9p' "$0" >&2
  exit 2
fi
IFS=, read -r -a runs <<< "$1"
shift
candor=${CANDOR:-build/bin/candor}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for app in "$@"; do
  : > "$work/$app.lines"
  for run in "${runs[@]}"; do
    file=$results/$run/schedules/$app.candor.json
    [[ -f $file ]] || { echo "compare_picks: no pick $file" >&2; exit 1; }
    python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))))' "$file" >> "$work/$app.lines"
  done
  for ((i = 0; i < rounds; i++)); do
    "$candor" measure "$app" --schedules "$work/$app.lines" --runs 10 --json
  done > "$work/$app.out"
  python3 - "$work/$app.out" "$app" "${runs[@]}" <<'PY'
import json, statistics, sys
out, app, runs = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = [json.loads(l) for l in open(out) if l.startswith("{")]
print(app)
for i, run in enumerate(runs):
    ms = [r["runtime_ms"] for r in rows[i::len(runs)] if r.get("verified")]
    med = f"{statistics.median(ms):.3f}" if ms else "failed"
    print(f"  {run:12} median {med} ms  runs {' '.join(f'{x:.3f}' for x in ms)}")
PY
done
