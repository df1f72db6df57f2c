#!/bin/sh
# `candor measure --timing-lock none` measures without a lock, as `candor search` does: it
# must not take "none" for a lock file's path and leave a file of that name behind.
set -eu
candor=$1 machine=$2 out=$3
rm -rf "$out"
mkdir -p "$out"
cd "$out"
"$candor" search random:1 --search greedy --json --runs 1 --timing-lock none --machine "$machine" > search.json
python3 -c 'import json, sys; s = json.load(open("search.json"))["schedule_json"]; print(s if isinstance(s, str) else json.dumps(s))' \
  > schedule.json
"$candor" measure random:1 --schedule schedule.json --runs 1 --timing-lock none --json > measure.json
grep -q '"verified":true' measure.json
[ ! -e none ]
