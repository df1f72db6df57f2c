#!/bin/sh
# `candor search --top K`: K distinct schedules ordered by predicted cost, each verified and
# timed (also those autotuning did not measure); with --no-measure, priced only. And --plot: a PNG, or a clear error before any search
# (gnuplot missing, a path that cannot be written).
set -eu
unset CANDOR_MODEL
candor=$1 machine=$2 out=$3
rm -rf "$out"
mkdir -p "$out"
cd "$out"
common="--search beam --budget time=3s --runs 1 --timing-lock none --machine $machine"
# shellcheck disable=SC2086
"$candor" search box_blur $common --top 4 --json --plot plot.png > top.json
# shellcheck disable=SC2086
"$candor" search box_blur $common --top 3 --json --no-measure > priced.json
# Autotuning one schedule: the other two of the top are verified and timed alone.
# shellcheck disable=SC2086
"$candor" search box_blur $common --top 3 --json --autotune 1 > tuned.json
python3 - <<'PY'
import json
top = json.load(open("top.json"))
rows = top["top"]
assert len(rows) == 4, f"--top 4 gave {len(rows)} schedules"
assert [r["rank"] for r in rows] == [1, 2, 3, 4], rows
assert len({r["schedule"] for r in rows}) == 4, "the schedules are not distinct"
predicted = [r["predicted_ms"] for r in rows]
assert predicted == sorted(predicted), f"not ordered by predicted cost: {predicted}"
for r in rows:
    assert r["verified"] is True and r["measured"] is True and r["runtime_ms"] > 0, r
    assert r["lower_bound_ms"] > 0 and r["pins"], r
# Model only, the pick is the best predicted schedule that verified: here the first.
assert top["schedule"] == rows[0]["schedule"] and top["predicted_ms"] == rows[0]["predicted_ms"]
tuned = json.load(open("tuned.json"))
assert tuned["autotuned"] is True and tuned["candidates_measured"] == 1, tuned["candidates_measured"]
assert len(tuned["top"]) == 3 and all(r["verified"] is True and r["runtime_ms"] > 0 for r in tuned["top"]), tuned["top"]
priced = json.load(open("priced.json"))["top"]
assert len(priced) == 3 and all(r["measured"] is False and r["runtime_ms"] is None for r in priced), priced
PY
head -c 8 plot.png | od -An -c | grep -q 'P   N   G' || { echo "plot.png is not a PNG" >&2; exit 1; }

# Errors before the search: exit 1 with a message, no crash.
expect_error() {
  pattern=$1
  shift
  if "$@" > /dev/null 2> err.txt; then
    echo "accepted: $*" >&2
    exit 1
  fi
  grep -q -- "$pattern" err.txt || { echo "no '$pattern' in:" >&2; cat err.txt >&2; exit 1; }
}
mkdir -p a_folder
# shellcheck disable=SC2086
expect_error "cannot write a_folder: not a regular file" "$candor" search box_blur $common --plot a_folder
touch not_a_folder
# shellcheck disable=SC2086
expect_error "is not a folder" "$candor" search box_blur $common --plot not_a_folder/plot.png
# shellcheck disable=SC2086
expect_error "needs gnuplot" env PATH=/nonexistent "$candor" search box_blur $common --plot p.png
# shellcheck disable=SC2086
expect_error "top" "$candor" search box_blur $common --top 0
