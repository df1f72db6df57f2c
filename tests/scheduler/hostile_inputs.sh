#!/usr/bin/env bash
# The candor CLI on careless and hostile input: each case exits with status 1 and a message
# that names the bad part (never runs unbounded, measures a schedule other than its file's,
# or loses a journal without a word).
#   hostile_inputs.sh CANDOR MACHINE WORKDIR
set -u
candor=$1 machine=$2 work=$3
source "$(dirname "$0")/../expect_error.sh"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

printf 'a 3\nb 3 a\nc 1 b\n' > block.bb
for budget in time=nan time=1e99 time=inf time=0x10 time=-0s time=0; do
  expect_error "--budget: time needs a positive duration" "$candor" block block.bb --budget "$budget"
done
expect_error "--budget: empty" "$candor" block block.bb --budget ""
expect_error "--budget: kept needs a decimal integer of at least 1, got '0'" "$candor" block block.bb --budget kept=0
expect_error "--budget: nodes needs a decimal integer of at least 1, got '1.5'" "$candor" block block.bb --budget nodes=1.5
expect_error "--budget: time given twice" "$candor" block block.bb --budget time=1s,time=2s
expect_error "--budget: memory needs a size" "$candor" block block.bb --budget memory=12parsecs

# Numeric options are decimal (CLI11 alone reads 0x10 as 16).
expect_error "--runs: needs a decimal number, got '0x3'" "$candor" search box_blur --runs 0x3 --no-measure

# A block whose pairwise order choices cannot fit: refused before memory runs out.
python3 -c "print('\n'.join('i%d 1%s' % (i, ' i%d' % (i - 1) if i else '') for i in range(10000)))" > huge.bb
(ulimit -v 8000000; expect_error "the space is too large for this machine" "$candor" block huge.bb --budget time=5s)

# Schedules that do not say what they would be measured as.
"$candor" search box_blur --search greedy --no-measure --json --machine "$machine" > search.json || {
  echo "FAIL: no schedule to mutate"; exit 1; }
mutate() {  # mutate OUT PYTHON-STATEMENT (on s, the schedule; r, a Func computed at the root with a split)
  python3 - "$1" "$2" <<'PY'
import json, sys
s = json.load(open("search.json"))["schedule_json"]
s = json.loads(s) if isinstance(s, str) else s
r = next(f for f in s["funcs"].values() if f["compute"] == "root" and f["stages"] and f["stages"][0]["splits"])
exec(sys.argv[2])
json.dump(s, open(sys.argv[1], "w"))
PY
}
mutate huge_factor.json 'r["stages"][0]["splits"][0]["factor"] = 2**40'
expect_error "splits[0].factor: expected an integer from 1 to 2147483647, got 1099511627776" \
  "$candor" measure box_blur --schedule huge_factor.json
mutate fraction.json 'r["stages"][0]["splits"][0]["factor"] = 3.5'
expect_error "splits[0].factor: expected an integer, got 3.5" "$candor" measure box_blur --schedule fraction.json
mutate typo.json 'r["stages"][0]["splits"][0]["factr"] = 4'
expect_error "splits[0].factr: unknown key" "$candor" measure box_blur --schedule typo.json
mutate missing.json 'del s["funcs"][next(n for n, f in s["funcs"].items() if f["compute"] == "root")]'
expect_error "is not scheduled" "$candor" measure box_blur --schedule missing.json
mutate no_stages.json 'r["stages"] = []'
expect_error "0 stage schedules for a Func of 1 stage" "$candor" measure box_blur --schedule no_stages.json

# A journal that cannot be written is refused before anything is searched or measured.
expect_error "cannot write journal /proc/self/nope/j.jsonl" \
  "$candor" search box_blur --autotune 2 --journal /proc/self/nope/j.jsonl --machine "$machine"
mkdir adir
expect_error "cannot write journal adir: not a regular file" \
  "$candor" search box_blur --autotune 2 --journal adir --machine "$machine"

# A machine file the user names is theirs: unusable, it is an error naming the value, and it
# is left as it was (not calibrated over).
python3 -c "import json; m = json.load(open('$machine')); m['lanes']['float32'] = 'eight'; json.dump(m, open('bad_machine.json', 'w'))"
cp bad_machine.json bad_machine.orig
expect_error 'lanes.float32: expected a number, got a string ("eight")' \
  "$candor" search box_blur --no-measure --budget time=1s --machine bad_machine.json
cmp -s bad_machine.json bad_machine.orig || { echo "FAIL: the named machine file was changed"; failures=$((failures + 1)); }

if [ "$failures" -ne 0 ]; then echo "$failures case(s) failed"; exit 1; fi
echo "every case exits 1 with a clear error"
