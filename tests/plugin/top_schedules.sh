#!/bin/bash
# CANDOR_TOP=3: beside the schedule it emits, the plugin writes the model's three best,
# distinct, in its order, each checked on synthetic inputs and each a header that compiles.
# A node budget sets no deadline: every one is checked however loaded the machine is.
#   top_schedules.sh GENERATOR PLUGIN TARGET HALIDE_INCLUDE_DIR CXX
set -euo pipefail
generator=$1 plugin=$2 target=$3 include=$4 cxx=$5
tmp=$(mktemp -d "${TMPDIR:-/tmp}/candor_top.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

CANDOR_TOP=3 CANDOR_TOP_DIR="$tmp/top" CANDOR_BUDGET=nodes=3000 "$generator" -g box_blur -o "$tmp" -e h,schedule \
  -p "$plugin" -s Candor target="$target" auto_schedule=true 2> "$tmp/log" || { cat "$tmp/log"; fail "the generator failed"; }
cat "$tmp/log"
python3 - "$tmp/top" "$tmp/box_blur.schedule.h" <<'PY'
import json, os, sys
top, emitted = sys.argv[1], open(sys.argv[2]).read()
index = json.load(open(os.path.join(top, "output.top.json")))
assert [e["rank"] for e in index] == [1, 2, 3], index
predicted = [e["predicted_ms"] for e in index]
assert predicted == sorted(predicted), predicted
assert all(e["verified"] and e["verdict"] == "matches the reference" for e in index), index
assert sum(e["emitted"] for e in index) == 1, index
bodies = []
for e in index:
    text = open(os.path.join(top, e["file"])).read()
    assert "inline void %s(" % e["function"] in text, e
    body = text[text.index("std::map<std::string, ::Halide::Func> funcs;"):]
    bodies.append(body)
    if e["emitted"]:  # the same directives as the schedule the generator emitted
        lines = lambda t: {l.strip() for l in t.splitlines() if l.strip() and not l.strip().startswith("//")}
        missing = lines(body[:body.rindex("#endif")]) - lines(emitted) - {"}"}
        assert not missing, (e, missing)
assert len(set(bodies)) == 3, "the three schedules are not distinct"
print("top schedules:", [(e["file"], round(e["predicted_ms"], 4)) for e in index])
PY
for h in "$tmp"/top/output.top*.schedule.h; do
  printf '#include "%s"\n' "$h" > "$tmp/use.cpp"
  "$cxx" -std=c++17 -fsyntax-only -I "$include" "$tmp/use.cpp" || fail "$h does not compile"
done
echo "PASS"
