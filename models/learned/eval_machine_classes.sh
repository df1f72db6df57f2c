#!/usr/bin/env bash
# The shipped weights (or W) on the example apps' samples of each machine class the dataset
# holds, against the analytic model: each class's samples refeaturized on the machine
# description they were measured with, then `candor model eval` (its held-out figures use the
# Zen 4 held-out pool, the same for every class). Prints a table, one class a row; about a
# minute.
#   models/learned/eval_machine_classes.sh [W]
set -euo pipefail
cd "$(dirname "$0")/../.."
weights=${1:-models/learned/weights.json}
data=models/learned/dataset
for tool in candor candor_refeaturize; do
  [ -x build/bin/$tool ] || { echo "eval_machine_classes.sh: error: build/bin/$tool is missing (run scripts/setup.sh)" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
zcat "$data/2026-11-29/samples_512_1024.jsonl.gz" > "$work/raw_heldout.jsonl"
build/bin/candor_refeaturize "$work/raw_heldout.jsonl" "$work/heldout.jsonl" --machine "$data/zen4_machine.json" >&2
printf "%-28s %-12s %8s %16s %17s %12s\n" class dataset samples learned_pairwise analytic_pairwise learned_r2
for entry in "zen4_epyc:2026-11-30" "zen3_avx2:2026-11-26" "xeon_avx512:2026-11-23" "xeon_avx512:2026-11-23b" \
             "xeon_sapphirerapids:2026-12-01" "zen5_epyc_kvm:2026-12-08"; do
  class=${entry%%:*} dir=${entry#*:}
  zcat "$data/$dir/apps_samples.jsonl.gz" > "$work/raw_$dir.jsonl"
  build/bin/candor_refeaturize "$work/raw_$dir.jsonl" "$work/$dir.jsonl" --machine "$data/$dir/machine.json" >&2
  build/bin/candor model eval --weights "$weights" --machine "$data/$dir/machine.json" --samples "$work/heldout.jsonl" \
      --apps-samples "$work/$dir.jsonl" --no-speed --json > "$work/$dir.eval.json"
  python3 - "$class" "$dir" "$work/$dir.jsonl" "$work/$dir.eval.json" <<'PY'
import json, sys
cls, d, samples, ev = sys.argv[1:]
e = json.load(open(ev))
n = sum(1 for _ in open(samples))
print(f"{cls:28s} {d:12s} {n:8d} {e['apps_pairwise']:16.3f} {e['analytic']['apps_pairwise']:17.3f} {e['apps_r2_log']:12.3f}")
PY
done
