#!/bin/sh
# `candor measure` options on box_blur's greedy pick:
# --timing-lock none measures without a lock, as `candor search` does (it must not take "none"
# for a lock file's path and leave a file of that name behind); --assembly DIR writes the
# assembly the schedule compiles to.
set -eu
candor=$1 machine=$2 out=$3
rm -rf "$out"
mkdir -p "$out"
cd "$out"
"$candor" search box_blur --search greedy --json --runs 1 --timing-lock none --machine "$machine" > search.json
python3 -c 'import json, sys; s = json.load(open("search.json"))["schedule_json"]; print(s if isinstance(s, str) else json.dumps(s))' \
  > schedule.json
"$candor" measure box_blur --schedule schedule.json --runs 1 --timing-lock none --assembly asm --json \
  > measure.json 2> measure.err
grep -q '"verified":true' measure.json
[ ! -e none ]
file=$(sed -n 's/^assembly: //p' measure.err)
[ -s "$file" ]
grep -q 'ret' "$file"
