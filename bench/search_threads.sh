#!/bin/bash
# Search throughput with the cost model's batches on one thread against every core, side by
# side: for each app, `candor search APP --budget nodes=N,seed=S --model-threads T` alternates
# T = 1 and T = 0 (every core) ROUNDS times; prints each one's median search seconds, their
# ratio, and whether both picked the same schedule (they must: the threads only share out
# independent predictions). Hold the timing lock exclusively (`flock -x`) if a collector or a
# head-to-head shares the machine.
#
#   bench/search_threads.sh [--rounds N] [--nodes N] APP...
#   bench/search_threads.sh unsharp_mask lens_blur conv_relu local_laplacian
set -euo pipefail
rounds=5
nodes=4000
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    *) echo "search_threads: unknown option $1" >&2; exit 2 ;;
  esac
done
if [[ $# -lt 1 ]]; then
  sed -n '2,10p' "$0" >&2
  exit 2
fi
candor=${CANDOR:-build/bin/candor}
machine=()
[[ -n ${CANDOR_MACHINE:-} ]] && machine=(--machine "$CANDOR_MACHINE")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for app in "$@"; do
  for ((r = 1; r <= rounds; ++r)); do
    for threads in 1 0; do
      "$candor" search "$app" --budget "nodes=$nodes,seed=$r" --model-threads "$threads" "${machine[@]}" --json \
        2>/dev/null >> "$work/$app.$threads"
    done
    echo "[search_threads] $app round $r/$rounds" >&2
  done
done
python3 - "$work" "$@" <<'PY'
import json, statistics, sys
work, apps = sys.argv[1], sys.argv[2:]
print(f"{'app':<26} {'1 thread s':>10} {'all cores s':>11} {'speedup':>8}  same picks")
speedups = []
for app in apps:
    runs = {t: [json.loads(l) for l in open(f"{work}/{app}.{t}")] for t in ("1", "0")}
    one = statistics.median(r["search_seconds"] for r in runs["1"])
    every = statistics.median(r["search_seconds"] for r in runs["0"])
    same = all(a["pins"] == b["pins"] and a["predicted_ms"] == b["predicted_ms"] for a, b in zip(runs["1"], runs["0"]))
    speedups.append(one / every)
    print(f"{app:<26} {one:>10.2f} {every:>11.2f} {one / every:>7.2f}x  {'yes' if same else 'NO'}")
print(f"median speedup {statistics.median(speedups):.2f}x (medians over rounds of search seconds, same node budget)")
PY
