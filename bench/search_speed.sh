#!/bin/bash
# Search speed per app: candidates created per second by `candor search APP --budget
# nodes=N,seed=R --no-measure` (every core), median of ROUNDS, and, side by side in the same
# run, Halide 14's Adams2019 cost evaluations per second on the same app (HL_DEBUG_AUTOSCHEDULE=1
# prints its count; `head_to_head --one APP --scheduler Adams2019`). With --vs OTHER_CANDOR,
# the other build runs in turn with this one (A B A B ...) and the table adds their ratio and
# whether both picked the same schedule (they must, when only the speed changed). With
# --profile, one more run per app on one thread under `perf record` (Debian's linux-perf)
# splits its samples into propagation, lowering (views), the analytic model, featurization,
# the network, the lower bound and the search's own bookkeeping.
#
#   bench/search_speed.sh [--nodes N] [--rounds R] [--vs CANDOR] [--profile] [--no-adams]
#                         [--out DIR] [APP...]          (default: every app)
#   bench/search_speed.sh --vs /tmp/old/candor --profile unsharp_mask harris
#
# Writes DIR/search_speed.csv (default DIR: a fresh folder under ${TMPDIR:-/tmp}) and, with
# gnuplot, DIR/search_speed.png.
set -euo pipefail
cd "$(dirname "$0")/.."
nodes=2000
rounds=3
other=
profile=0
adams=1
out=
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
    --nodes) nodes=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --vs) other=$2; shift 2 ;;
    --profile) profile=1; shift ;;
    --no-adams) adams=0; shift ;;
    --out) out=$2; shift 2 ;;
    *) echo "search_speed: unknown option $1" >&2; sed -n '2,17p' "$0" >&2; exit 2 ;;
  esac
done
candor=${CANDOR:-build/bin/candor}
head_to_head=${HEAD_TO_HEAD:-build/bin/head_to_head}
machine=${CANDOR_MACHINE:-tests/machines/zen4_epyc.json}
[[ -x $candor ]] || { echo "search_speed: no $candor (run scripts/setup.sh)" >&2; exit 1; }
[[ -z $other || -x $other ]] || { echo "search_speed: --vs $other is not an executable" >&2; exit 1; }
if ((profile)) && ! command -v perf > /dev/null; then
  echo "search_speed: --profile needs perf (apt-get install -y linux-perf)" >&2
  exit 1
fi
apps=("$@")
((${#apps[@]})) || mapfile -t apps < <("$candor" apps)
out=${out:-$(mktemp -d "${TMPDIR:-/tmp}/search_speed.XXXXXX")}
mkdir -p "$out"
runs=$out/runs.jsonl
: > "$runs"

search() {  # search WHICH BINARY APP ROUND [extra args]
  local which=$1 bin=$2 app=$3 round=$4
  shift 4
  "$bin" search "$app" --budget "nodes=$nodes,seed=$round" --no-measure --json --machine "$machine" "$@" \
    2> "$out/last.err" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps({"which":sys.argv[1],"app":sys.argv[2],"created":d["created"],"nodes":d["nodes"],"seconds":d["search_seconds"],"pins":d["pins"],"predicted_ms":d["predicted_ms"]}))' "$which" "$app" >> "$runs"
}

for app in "${apps[@]}"; do
  for ((r = 1; r <= rounds; ++r)); do
    search A "$candor" "$app" "$r"
    [[ -z $other ]] || search B "$other" "$app" "$r"
  done
  if ((adams)) && [[ -x $head_to_head ]]; then
    HL_DEBUG_AUTOSCHEDULE=1 "$head_to_head" --one "$app" --scheduler Adams2019 --runs 1 --warmup 0 \
      > "$out/adams.out" 2> "$out/adams.err" || true
    python3 - "$out" "$app" >> "$runs" <<'PY'
import json, re, sys
out, app = sys.argv[1], sys.argv[2]
evals = re.findall(r"Cost evaluated this many times: (\d+)", open(f"{out}/adams.err").read())
cell = {}
for line in open(f"{out}/adams.out"):
    i = line.find("{")
    if i >= 0:
        try: cell = json.loads(line[i:])
        except ValueError: pass
if evals and cell.get("search_seconds"):
    print(json.dumps({"which": "adams", "app": app, "evaluations": int(evals[-1]), "seconds": cell["search_seconds"]}))
PY
  fi
  if ((profile)); then
    perf record -q -F 300 --call-graph dwarf,32768 -o "$out/perf.data" -- "$candor" search "$app" \
      --budget "nodes=$nodes,seed=1" --no-measure --json --model-threads 1 --machine "$machine" > /dev/null 2>&1
    perf script -i "$out/perf.data" -F ip,sym > "$out/perf.txt" 2> /dev/null
    python3 - "$app" "$out/perf.txt" >> "$runs" <<'PY'
import json, sys
# The innermost frame that names a phase decides a sample's phase; the order below breaks ties
# (the network inside featurization's caller, the analytic model inside the learned model).
phases = [("network", "Network::predict"), ("features", "featurize"), ("analytic", "AnalyticModel::explain"),
          ("bound", "lower_bound"), ("lowering", "HalideCpuSpace::view"), ("propagation", "Space::apply"),
          ("propagation", "Space::fix"), ("propagation", "Space::remove"), ("propagation", "Space::propagate"),
          ("propagation", "Space::root"), ("describe", "describe_app")]
counts = {p: 0 for p, _ in phases}
counts["search"] = 0
total = 0
for sample in open(sys.argv[2]).read().split("\n\n"):
    frames = [f.strip() for f in sample.strip().split("\n") if f.strip()]
    if not frames: continue
    total += 1
    phase = "search"
    for f in frames:  # innermost first
        hit = next((p for p, key in phases if key in f), None)
        if hit: phase = hit; break
    counts[phase] += 1
print(json.dumps({"which": "profile", "app": sys.argv[1], "samples": total,
                  "shares": {k: v / max(total, 1) for k, v in counts.items()}}))
PY
  fi
  echo "[search_speed] $app done" >&2
done

python3 - "$runs" "$out" "$other" <<'PY'
import json, statistics, sys
runs_path, out, other = sys.argv[1], sys.argv[2], sys.argv[3]
rows = [json.loads(l) for l in open(runs_path)]
apps = list(dict.fromkeys(r["app"] for r in rows))
def rate(which, app):
    rs = [r["created"] / r["seconds"] for r in rows if r["which"] == which and r["app"] == app]
    return statistics.median(rs) if rs else None
head = f"{'app':<26} {'cand/s':>8}"
if other: head += f" {'other':>8} {'ratio':>6} {'same':>5}"
head += f" {'Adams2019 evals/s':>17} {'Adams/cand':>10}"
profiled = any(r["which"] == "profile" for r in rows)
phases = ["propagation", "lowering", "analytic", "features", "network", "bound", "search", "describe"]
if profiled: head += "  " + " ".join(f"{p[:7]:>7}" for p in phases)
print(head)
csv = ["app,candidates_per_s,other_candidates_per_s,same_picks,adams2019_evaluations_per_s," + ",".join(phases)]
ours, ratios, adams_ratio = [], [], []
for app in apps:
    a = rate("A", app)
    ours.append(a)
    line = f"{app:<26} {a:>8.0f}"
    b = rate("B", app) if other else None
    same = ""
    if other:
        pa = [r for r in rows if r["which"] == "A" and r["app"] == app]
        pb = [r for r in rows if r["which"] == "B" and r["app"] == app]
        same = "yes" if all(x["pins"] == y["pins"] and x["predicted_ms"] == y["predicted_ms"] for x, y in zip(pa, pb)) else "NO"
        ratios.append(a / b)
        line += f" {b:>8.0f} {a / b:>5.2f}x {same:>5}"
    ad = [r for r in rows if r["which"] == "adams" and r["app"] == app]
    ar = ad[0]["evaluations"] / ad[0]["seconds"] if ad else None
    if ar:
        adams_ratio.append(ar / a)
        line += f" {ar:>17.0f} {ar / a:>9.1f}x"
    else:
        line += f" {'-':>17} {'-':>10}"
    pr = [r for r in rows if r["which"] == "profile" and r["app"] == app]
    if pr: line += "  " + " ".join(f"{100 * pr[0]['shares'][p]:>6.1f}%" for p in phases)
    print(line)
    csv.append(",".join([app, f"{a:.1f}", f"{b:.1f}" if b else "", same, f"{ar:.1f}" if ar else ""] +
                        [f"{pr[0]['shares'][p]:.4f}" if pr else "" for p in phases]))
print(f"median candidates/s {statistics.median(ours):.0f}", end="")
if ratios: print(f"; geomean ratio to the other build {statistics.geometric_mean(ratios):.2f}x", end="")
if adams_ratio: print(f"; Adams2019 evaluates {statistics.geometric_mean(adams_ratio):.1f}x as many per second (geomean)", end="")
print()
open(f"{out}/search_speed.csv", "w").write("\n".join(csv) + "\n")
print(f"(runs and CSV in {out})")
PY
if command -v gnuplot > /dev/null; then
  gnuplot -e "csv='$out/search_speed.csv'; png='$out/search_speed.png'; other='${other:-other build}'" \
    bench/search_speed_plot.gp 2> /dev/null &&
    echo "(plot: $out/search_speed.png)"
fi
