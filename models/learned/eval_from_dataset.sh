#!/usr/bin/env bash
# `candor model eval` of a bag (default: the shipped models/learned/weights.json) on the
# repository's dataset, refeaturized with this build as the bag was trained
# (refeaturize_pools.sh): held out, the training pools' pipelines whose seed % 5 == 0
# (train.py's rule) and the 512-1024-pixel pipelines; the example apps, never trained on, and
# their near-optimal pairs (schedules autotuning timed side by side). Under a minute plus
# the speed measurement; `--json-out FILE` also writes the evaluation as JSON to FILE (from the
# same refeaturized pools); further arguments go to `candor model eval` (--json, --per-app,
# --no-speed).
#   models/learned/eval_from_dataset.sh [W] [--json-out FILE] [EVAL_ARGS...]
set -euo pipefail
cd "$(dirname "$0")/../.."
weights=models/learned/weights.json
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then weights=$1; shift; fi
json_out=
if [ "${1:-}" = --json-out ]; then json_out=${2:?--json-out needs a FILE}; shift 2; fi
[ -f "$weights" ] || { echo "eval_from_dataset.sh: error: no weights at $weights" >&2; exit 1; }
[ -x build/bin/candor ] || { echo "eval_from_dataset.sh: error: build/bin/candor is missing (run scripts/setup.sh)" >&2; exit 1; }
pools=build/learned_eval_pools
rm -rf "$pools"
models/learned/refeaturize_pools.sh "$pools" 2026-11-27/samples 2026-11-29/samples_512_1024 2026-11-30/apps_samples \
  2026-11-27/autotune_apps_samples 2026-11-27/autotune_apps_samples_s32
cat "$pools"/2026-11-27_autotune_apps_samples{,_s32}.jsonl > "$pools/tuned_apps.jsonl"
eval_args=(--weights "$weights" --machine models/learned/dataset/zen4_machine.json
           --samples "$pools/2026-11-27_samples.jsonl" --samples "$pools/2026-11-29_samples_512_1024.jsonl"
           --apps-samples "$pools/2026-11-30_apps_samples.jsonl" --near-optimal-samples "$pools/tuned_apps.jsonl")
[ -z "$json_out" ] || build/bin/candor model eval "${eval_args[@]}" "$@" --json > "$json_out"
build/bin/candor model eval "${eval_args[@]}" "$@"
