#!/usr/bin/env bash
# models/learned/adapt.sh end to end at the smallest sizes: two pipelines of each generated
# family and the first app, two schedules each, a bag of three-epoch members on two small
# pools. The first run collects, trains, evaluates and writes W; the rerun, with --install into
# a data folder of this test's (never models/learned/weights.json), measures nothing new,
# keeps the bag, and installs exactly when the evaluation it wrote says W orders this
# machine's held-out and app pairs at least as well as the default. Bad input fails clearly.
#   adapt_smoke.sh PYTHON3 SOURCE_DIR CANDOR MACHINE_JSON WORK_DIR
set -euo pipefail
python=$1 src=$2 candor=$3 machine=$4 work=$5
adapt=$src/models/learned/adapt.sh
if [ ! "$src/build/bin/candor" -ef "$candor" ]; then
  echo "adapt.sh runs $src/build/bin; this build's candor is $candor: skipped"
  exit 77
fi
"$python" -c "import torch" 2>/dev/null || { echo "python3-torch is missing (scripts/setup.sh installs it)" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work/data"
cp "$src/models/learned/weights.json" "$work/data/weights.json"
shipped_sum=$(sha256sum < "$src/models/learned/weights.json")
fail() { echo "adapt_smoke: $*" >&2; exit 1; }
expect_failure() {  # RC PATTERN ARGS...: adapt.sh ARGS exits RC and says PATTERN
  local rc=$1 pattern=$2 got=0
  shift 2
  CANDOR_MACHINE=$machine PYTHON=${PYTHON_OVERRIDE:-$python} "$adapt" "$@" > "$work/failure.log" 2>&1 || got=$?
  [ "$got" = "$rc" ] && grep -q -- "$pattern" "$work/failure.log" ||
    { cat "$work/failure.log" >&2; fail "adapt.sh $* exited $got (expected $rc, saying '$pattern')"; }
}
expect_failure 2 "unknown option '--frobnicate'" --frobnicate
expect_failure 2 "needs a positive whole number" --schedules 0
expect_failure 2 "not all 0" --split 0:0:0
expect_failure 1 "no pool" --pools 2026-11-27/no_such_pool --work "$work/empty"
PYTHON_OVERRIDE=/bin/false expect_failure 1 "python3-torch is missing" --work "$work/empty"
expect_failure 1 "no usable held-out pipeline" --minutes 0 --work "$work/empty" --out "$work/empty.json"
[ ! -e "$work/empty.json" ] || fail "a run without samples wrote weights"

tiny=(--minutes 10 --split 1:1:0 --pipelines 2 --schedules 2 --timeout 10 --epochs 3
      --pools 2026-11-29c/round1_layers_near_optimal_samples,2026-11-23b/samples@2026-11-23b/machine.json
      --work "$work/adapt" --out "$work/adapted.json" --data-dir "$work/data")
keys() { cat "$work"/adapt/samples/*/samples.jsonl | "$python" -c 'import json, sys; print(sorted(json.loads(l)["key"] for l in sys.stdin))'; }

CANDOR_MACHINE=$machine PYTHON=$python PROGRESS_SECONDS=1 "$adapt" "${tiny[@]}" > "$work/run1.log" 2>&1 ||
  { cat "$work/run1.log" >&2; fail "the first run failed"; }
cat "$work/run1.log"
grep -q '^\[collect rank 0\]' "$work/run1.log" || fail "no collection progress lines"
grep -q '^\[adapt train\] members 1 ' "$work/run1.log" || fail "no training progress lines"
grep -q '^apps pairwise' "$work/run1.log" || fail "no evaluation table"
"$python" - "$work" <<'PY'
import json, sys
work = sys.argv[1]
def samples(part):
    return [json.loads(l) for l in open(f"{work}/adapt/samples/{part}/samples.jsonl")]
expected = {"random": ["random_100000", "random_100001"], "layers": ["layers_100000", "layers_100001"]}
for part, pipelines in expected.items():
    got = sorted(s["pipeline"] for s in samples(part))
    if got != sorted(pipelines * 2):
        sys.exit(f"{part}: expected two samples of each of {pipelines}, got {got}")
apps = [s["pipeline"] for s in samples("apps")]
if len(apps) != 2 or len(set(apps)) != 1:
    sys.exit(f"apps: expected two samples of the first app, got {apps}")
weights = json.load(open(f"{work}/adapted.json"))
if len(weights["members"]) != 4:
    sys.exit(f"the adapted bag has {len(weights['members'])} members")
e = json.load(open(f"{work}/adapted.json.eval.json"))
if e["heldout"]["learned"]["samples"] < 1 or e["apps"]["learned"]["samples"] < 1:
    sys.exit("the evaluation saw no held-out or app samples of this machine")
table = json.load(open(f"{work}/adapt/evaluation.json"))
if sorted(table["columns"]) != ["adapted", "analytic", "default"] or table["default_weights"] != f"{work}/data/weights.json":
    sys.exit(f"evaluation.json: {table}")
PY
before=$(keys)

rc=0
CANDOR_MACHINE=$machine PYTHON=$python "$adapt" "${tiny[@]}" --install > "$work/run2.log" 2>&1 || rc=$?
cat "$work/run2.log"
[ "$rc" = 0 ] || [ "$rc" = 3 ] || fail "the rerun failed ($rc)"
[ "$(keys)" = "$before" ] || fail "the rerun measured new samples"
grep -q 'random: all 2 pipelines collected' "$work/run2.log" && grep -q 'apps: 0 new samples' "$work/run2.log" ||
  fail "the rerun did not resume"
grep -q 'training set is unchanged' "$work/run2.log" || fail "the rerun retrained on the same training set"
verdict=$("$python" - "$work" <<'PY'
import json, sys
work = sys.argv[1]
new = json.load(open(f"{work}/adapted.json.eval.json"))
old = json.load(open(f"{work}/adapt/default.eval.json"))
keep = [(p, new[p]["learned"]["pairwise"], old[p]["learned"]["pairwise"]) for p in ("heldout", "apps")]
print("install" if all(n is not None and o is not None and n >= o for _, n, o in keep) else "keep")
PY
)
if [ "$verdict" = install ]; then
  [ "$rc" = 0 ] && cmp -s "$work/adapted.json" "$work/data/weights.json" || fail "W orders as well as the default and was not installed"
  cmp -s "$src/models/learned/weights.json" "$work/adapt/replaced_weights.json" || fail "the replaced weights were not kept"
else
  [ "$rc" = 3 ] && cmp -s "$src/models/learned/weights.json" "$work/data/weights.json" || fail "W orders worse and was installed"
fi
[ "$(sha256sum < "$src/models/learned/weights.json")" = "$shipped_sum" ] || fail "models/learned/weights.json changed"

# The default pools are train_from_dataset.sh --machine-classes' pools.
"$python" - "$src/models/learned/adapt.sh" "$src/models/learned/train_from_dataset.sh" <<'PY'
import re, sys
pool = re.compile(r"\d{4}-\d\d-\d\d[a-z]?/\w+(?:@[\w/.-]+)?")
adapt = [p for line in open(sys.argv[1]) if line.startswith("default_pools") for p in pool.findall(line)]
lines = open(sys.argv[2]).read().split("models/learned/refeaturize_pools.sh")[0]
train = pool.findall(lines[lines.index("training=("):])
if adapt != train:
    sys.exit(f"adapt.sh's pools {adapt} are not train_from_dataset.sh --machine-classes' {train}")
PY
echo "adapt_smoke: $verdict, as the evaluation says"
