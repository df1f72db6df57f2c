#!/bin/sh
# `candor search --autotune N --samples FILE`: every schedule a measuring process timed is
# appended as a dataset sample of that process's batch, and candor_refeaturize replays every
# one of them to the schedule that was measured (the records are complete samples).
set -eu
candor=$1 refeaturize=$2 machine=$3 out=$4
rm -rf "$out"
mkdir -p "$out"
# random:3 compiles in a few seconds (random:1 takes about 30 s); the limits of 240 s a step
# and 280 a schedule are generous for a loaded machine.
"$candor" search random:3 --budget time=2s --autotune 3 --autotune-step-timeout 240 --autotune-timeout 280 \
  --samples "$out/samples.jsonl" --machine "$machine" --json > "$out/search.json"
grep -q '"verified":true' "$out/search.json"
records=$(grep -c '"source":"autotune"' "$out/samples.jsonl")
batches=$(grep -o '"batch":"[0-9a-f]*"' "$out/samples.jsonl" | sort -u | wc -l)
echo "$records samples in $batches batches"
# The pick alone measures in one process; with others, the first process and the confirmations.
[ "$records" -ge 2 ] && [ "$batches" -ge 2 ]
"$refeaturize" "$out/samples.jsonl" "$out/now.jsonl" --machine "$machine" | tee "$out/refeaturize.log"
grep -q "$records samples read, $records written, 0 stale" "$out/refeaturize.log"
