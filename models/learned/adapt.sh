#!/usr/bin/env bash
# Adapts the learned cost model to this machine (models/learned/README.md, "Adapting to your
# machine"): measures samples here, trains the bag as the shipped one is trained with them
# added, and compares it with the shipped weights and the analytic model on this machine's
# held-out pipelines and apps.
#   models/learned/adapt.sh [--minutes M] [--out W] [--install] [--data-dir DIR] [--work DIR]
#       [--schedules K] [--pipelines N] [--split R:L:A] [--timeout S] [--epochs E] [--pools LIST]
# Run `adapt.sh --help` for what each option does. Needs build/bin/candor, candor_collect,
# candor_refeaturize (and candor_calibrate when the machine is not calibrated yet) and
# Debian's python3-torch (scripts/setup.sh).
set -euo pipefail

usage() {
  cat <<'EOF'
usage: models/learned/adapt.sh [options]

Adapts the learned cost model to this machine, in five steps:
  1. the machine description: $CANDOR_MACHINE or build/machine.json, calibrated if missing
     (copied into the work folder: its samples keep the description they were measured with);
  2. collection for M minutes on this machine (candor_collect, progress lines): generated
     pipelines of both families (random image patterns, DNN layers; seeds from 100000, apart
     from the dataset's) and the example apps, one after the other; each part starts no new
     pipeline after its share of the time, and measures at least one. Resumable: a rerun
     measures only what is not in the work folder yet;
  3. training: the bag of train_from_dataset.sh --machine-classes (four members over the
     validation folds, prior weight 30) on the repository's pools, each refeaturized on the
     machine description it was measured with, and this machine's samples; pipelines whose
     seed % 5 == 0 are never trained on. A rerun with the same training set keeps its bag;
  4. evaluation on this machine's held-out pipelines (seed % 5 == 0) and app samples:
     the adapted bag, the default weights, the analytic model (`candor model eval`);
  5. writes W; with --install, makes W the default model when it orders this machine's
     held-out pairs and app pairs at least as well as the default weights do.

options:
  --minutes M      collection time in minutes (default 30; 0: train and evaluate on what the
                   work folder holds). Training takes about 10 minutes more on two cores
  --out W          the adapted weights (default build/adapted_weights.json; also W.eval.json)
  --install        make W the default model (models/learned/weights.json, or DIR/weights.json
                   with --data-dir) when the evaluation allows it; the weights it replaces are
                   kept in the work folder
  --data-dir DIR   an installed package's data folder (P/share/candor), whose weights.json is
                   P/bin/candor's default model: the baseline and where --install writes
  --work DIR       samples, pools, the bag and its logs (default build/adapt)
  --schedules K    schedules measured per pipeline and per app (default 8)
  --pipelines N    at most N pipelines of each generated family (default 1000)
  --split R:L:A    shares of the time for random pipelines, DNN layers, apps (default 3:2:3)
  --timeout S      seconds per measurement, compile included (default 60)
  --epochs E       training epochs of each member (default: train.py's)
  --pools LIST     the repository's pools to train with, NAME[@MACHINE],... as
                   refeaturize_pools.sh takes them (default: train_from_dataset.sh
                   --machine-classes' pools)
  -h, --help       this text

Exit status: 0 done; 1 an error (a missing program, no usable samples of this machine);
2 a bad option; 3 --install left the default alone (W is written).
EOF
}

die() { echo "adapt.sh: error: $*" >&2; exit 1; }
bad_usage() { echo "adapt.sh: error: $*" >&2; echo "run 'models/learned/adapt.sh --help' for the options" >&2; exit 2; }
absolute() { case $1 in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
number() { [[ $2 =~ ^[0-9]+([.][0-9]+)?$ ]] || bad_usage "$1 needs a non-negative number, not '$2'"; }
count() { [[ $2 =~ ^[0-9]+$ ]] && [ "$2" -gt 0 ] || bad_usage "$1 needs a positive whole number, not '$2'"; }
clock() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }

# The pools train_from_dataset.sh --machine-classes trains on (the test checks the two agree).
default_pools=2026-11-27/samples,2026-11-27/near_optimal_samples,2026-11-29b/layers_near_optimal_samples
default_pools+=,2026-11-29c/round1_near_optimal_samples,2026-11-29c/round2_near_optimal_samples
default_pools+=,2026-11-29c/round1_layers_near_optimal_samples,2026-11-29c/round2_layers_near_optimal_samples
default_pools+=,2026-11-26/samples@2026-11-26/machine.json,2026-11-23/samples@2026-11-23/machine.json
default_pools+=,2026-11-23b/samples@2026-11-23b/machine.json
# Generated pipelines of this machine take seeds from here: the dataset's pipelines (seeds
# below 1000) have other machines' runtimes, and ranking pairs are formed within a pipeline.
# A multiple of 5, so the held-out rule (seed % 5 == 0) holds one pipeline in five.
first_seed=100000

minutes=30 out=build/adapted_weights.json install=0 data_dir= work=build/adapt schedules=8 pipelines=1000
split=3:2:3 timeout=60 epochs= pools=$default_pools
while [ $# -gt 0 ]; do
  case $1 in
    -h|--help) usage; exit 0 ;;
    --install) install=1; shift; continue ;;
    --minutes|--out|--data-dir|--work|--schedules|--pipelines|--split|--timeout|--epochs|--pools)
      [ $# -ge 2 ] || bad_usage "$1 needs a value" ;;
    *) bad_usage "unknown option '$1'" ;;
  esac
  case $1 in
    --minutes) number "$1" "$2"; minutes=$2 ;;
    --out) out=$(absolute "$2") ;;
    --data-dir) data_dir=$(absolute "$2") ;;
    --work) work=$(absolute "$2") ;;
    --schedules) count "$1" "$2"; schedules=$2 ;;
    --pipelines) count "$1" "$2"; pipelines=$2 ;;
    --split) [[ $2 =~ ^[0-9]+:[0-9]+:[0-9]+$ && ! $2 =~ ^0+:0+:0+$ ]] ||
               bad_usage "--split needs three whole numbers R:L:A, not all 0, not '$2'"
             split=$2 ;;
    --timeout) number "$1" "$2"; awk -v t="$2" 'BEGIN { exit !(t > 0) }' || bad_usage "--timeout needs a positive number"
               timeout=$2 ;;
    --epochs) count "$1" "$2"; epochs=$2 ;;
    --pools) [ -n "$2" ] || bad_usage "--pools needs a list"; pools=$2 ;;
  esac
  shift 2
done

cd "$(dirname "$0")/../.."
repo=$PWD
out=$(absolute "$out") work=$(absolute "$work")
python=${PYTHON:-/usr/bin/python3}
bin=build/bin
for tool in candor candor_collect candor_refeaturize; do
  [ -x $bin/$tool ] || die "$bin/$tool is missing (build it: scripts/setup.sh)"
done
"$python" -c "import torch" 2>/dev/null || die "python3-torch is missing for $python (scripts/setup.sh installs it)"
[ -z "$data_dir" ] || [ -d "$data_dir" ] || die "--data-dir $data_dir is not a folder"
IFS=, read -r -a pool_list <<< "$pools"
for entry in "${pool_list[@]}"; do
  name=${entry%@*}
  [ -f "models/learned/dataset/$name.jsonl.gz" ] || die "--pools: no pool models/learned/dataset/$name.jsonl.gz"
  [ "$name" = "$entry" ] || [ -f "models/learned/dataset/${entry#*@}" ] ||
    die "--pools: no machine description models/learned/dataset/${entry#*@}"
done
# The default weights: those --install replaces, else the ones candor falls back to.
install_to=$repo/models/learned/weights.json
[ -z "$data_dir" ] || install_to=$data_dir/weights.json
baseline=$install_to
[ -f "$baseline" ] || baseline=$repo/models/learned/weights.json
[ -f "$baseline" ] || baseline=  # no weights: the analytic model is the default
[ -z "${CANDOR_MODEL:-}" ] ||
  echo "adapt.sh: note: CANDOR_MODEL=$CANDOR_MODEL is set; it overrides the default model in searches" >&2

step() { echo "[adapt] $*" >&2; }
helper() { "$python" - "$@" <<'PY'
import glob, json, os, sys

def records(folder):
    """Every sample a collection folder holds (merged file and shards), each key once."""
    seen, out = set(), []
    for path in [os.path.join(folder, "samples.jsonl")] + sorted(glob.glob(os.path.join(folder, "shard-*.jsonl"))):
        if not os.path.exists(path):
            continue
        for line in open(path):
            try:
                s = json.loads(line)
            except json.JSONDecodeError:
                continue  # a torn last line
            if isinstance(s, dict) and isinstance(s.get("key"), str) and s["key"] not in seen:
                seen.add(s["key"])
                out.append(s)
    return out

def usable(s):
    return bool(s.get("ok")) and (s.get("runtime_ms") or 0) > 0 and bool(s.get("stages"))

def pct(x):
    return "n/a" if x is None else f"{100 * x:.1f}%"

command, args = sys.argv[1], sys.argv[2:]
if command == "seeds":  # the seeds of FIRST:FIRST+N with fewer than K samples recorded
    folder, first, n, k = args[0], int(args[1]), int(args[2]), int(args[3])
    have = {}
    for s in records(folder):
        if s.get("seed") is not None:
            have[s["seed"]] = have.get(s["seed"], 0) + 1
    print(",".join(str(seed) for seed in range(first, first + n) if have.get(seed, 0) < k))
elif command == "count":  # samples a collection folder holds
    print(len(records(args[0])))
elif command == "merge":  # OUT FOLDER...: their samples, each key once
    with open(args[0], "w") as f:
        for folder in args[1:]:
            for s in records(folder):
                f.write(json.dumps(s) + "\n")
elif command == "usable":  # LOCAL APPS: counts, and a complaint when one cannot evaluate
    local = [s for s in map(json.loads, open(args[0])) if usable(s)]
    apps = [s for s in map(json.loads, open(args[1])) if usable(s)]
    held = [s for s in local if s.get("seed") is not None and s["seed"] % 5 == 0]
    train = [s for s in local if s.get("seed") is not None and s["seed"] % 5 != 0]
    p = lambda xs: len({s["pipeline"] for s in xs})
    print(f"[adapt] this machine's usable samples: {len(train)} to train on ({p(train)} pipelines), "
          f"{len(held)} held out ({p(held)} pipelines), {len(apps)} of apps ({p(apps)} apps)", file=sys.stderr)
    missing = [what for what, xs in (("held-out pipeline (seed % 5 == 0)", held), ("app", apps)) if not xs]
    if missing:
        sys.exit("adapt.sh: error: no usable " + " and no ".join(missing) + " samples of this machine to evaluate on: "
                 "collect longer (a rerun resumes where collection stopped)")
elif command == "evaluate":  # ADAPTED_EVAL BASELINE_EVAL|- BASELINE_NAME OUT: the table and the verdict
    adapted = json.load(open(args[0]))
    base = json.load(open(args[1])) if args[1] != "-" else None
    def figures(e, model):  # model: "learned" or "analytic"
        return {f"{part}_{k}": e[part][model][k] for part in ("heldout", "apps") for k in ("r2_log", "pairwise", "pairs")}
    columns = {"adapted": figures(adapted, "learned"),
               "default": figures(base, "learned") if base else figures(adapted, "analytic"),
               "analytic": figures(adapted, "analytic")}
    h = adapted["heldout"]["learned"]; a = adapted["apps"]["learned"]
    print(f"{'':28s}{'adapted':>10s}{'default':>10s}{'analytic':>10s}")
    r2 = lambda x: "n/a" if x is None else f"{x:.3f}"
    rows = [("held-out R2 (log)", "heldout_r2_log", r2, f"({h['samples']} samples, {h['pipelines']} pipelines)"),
            ("held-out pairwise", "heldout_pairwise", pct, f"({h['pairs']} pairs)"),
            ("apps R2 (log)", "apps_r2_log", r2, f"({a['samples']} samples, {a['pipelines']} apps)"),
            ("apps pairwise", "apps_pairwise", pct, f"({a['pairs']} pairs)")]
    for label, key, show, note in rows:
        print(f"{label:28s}" + "".join(f"{show(c[key]):>10s}" for c in columns.values()) + f"   {note}")
    print(f"(default: {args[2]}; pairs of one pipeline's schedules measured more than "
          f"{100 * adapted['tie_tolerance']:.0f}% apart)")
    new, old = columns["adapted"], columns["default"]
    unjudged = [what for what, k in (("held-out", "heldout_pairwise"), ("app", "apps_pairwise"))
                if new[k] is None or old[k] is None]
    better = not unjudged and new["heldout_pairwise"] >= old["heldout_pairwise"] and new["apps_pairwise"] >= old["apps_pairwise"]
    reason = (f"no {' and no '.join(unjudged)} pairs measured more than 5% apart to judge by" if unjudged else
              f"held-out pairwise {pct(new['heldout_pairwise'])} against {pct(old['heldout_pairwise'])}, "
              f"apps pairwise {pct(new['apps_pairwise'])} against {pct(old['apps_pairwise'])}")
    json.dump({"columns": columns, "default_weights": args[2], "at_least_as_good": better, "reason": reason},
              open(args[3], "w"), indent=1)
    print(("at least as good as the default: " if better else "not at least as good as the default: ") + reason)
PY
}

# 1. The machine description.
machine=${CANDOR_MACHINE:-$repo/build/machine.json}
if [ ! -f "$machine" ]; then
  [ -x $bin/candor_calibrate ] || die "$machine is missing and $bin/candor_calibrate is not built"
  step "1/5 calibrating this machine into $machine (15-30 s)"
  $bin/candor_calibrate --out "$machine"
fi
mkdir -p "$work"
if [ ! -f "$work/machine.json" ]; then
  cp "$machine" "$work/machine.json"
  step "1/5 machine description: $machine (copied to $work/machine.json)"
elif ! cmp -s "$machine" "$work/machine.json"; then
  step "1/5 note: $machine changed since $work was started; its samples keep theirs," \
       "$work/machine.json (another --work starts over on the new one)"
else
  step "1/5 machine description: $work/machine.json"
fi
described=$work/machine.json

# 2. Collection: the parts one after the other; each part's time is its share of what is left.
collect_part() {  # FAMILY SHARE SHARES_LEFT
  local family=$1 share=$2 left=$3 folder=$work/samples/$1 before limit what args=()
  limit=$(awk -v total="$total_s" -v start="$start" -v now="$(date +%s.%N)" -v s="$share" -v l="$left" \
            'BEGIN { t = l > 0 ? (total - (now - start)) * s / l : 0; printf "%.3f", (t > 0.001 ? t : 0.001) }')
  if [ "$family" = apps ]; then
    args=(--apps) what="the example apps"
  else
    local seeds
    seeds=$(helper seeds "$folder" "$first_seed" "$pipelines" "$schedules")
    if [ -z "$seeds" ]; then
      step "2/5 $family: all $pipelines pipelines collected"
      return
    fi
    args=(--family "$family" --pipelines "$seeds") what="$family pipelines ($(tr , '\n' <<< "$seeds" | wc -l) to go)"
  fi
  before=$(helper count "$folder")
  local span="for $(clock "${limit%.*}")"
  [ "${limit%.*}" -gt 0 ] || span="(its share of the time is spent: one pipeline only)"
  step "2/5 collecting $what $span ($folder)"
  mkdir -p "$folder"
  $bin/candor_collect --out "$folder" "${args[@]}" --schedules-per-pipeline "$schedules" --timeout "$timeout" \
    --runs 3 --time-limit "$limit" --machine "$described" ||
    die "candor_collect failed on $family (what it measured is kept in $folder)"
  step "2/5 $family: $(( $(helper count "$folder") - before )) new samples, $(helper count "$folder") in all"
}
if awk -v m="$minutes" 'BEGIN { exit !(m == 0) }'; then
  step "2/5 --minutes 0: no collection"
else
  IFS=: read -r s_random s_layers s_apps <<< "$split"
  s_random=$((10#$s_random)) s_layers=$((10#$s_layers)) s_apps=$((10#$s_apps))
  total_s=$(awk -v m="$minutes" 'BEGIN { print m * 60 }') start=$(date +%s.%N)
  step "2/5 collecting for $minutes minutes (random pipelines, DNN layers, apps: $split of the time)"
  collect_part random "$s_random" $((s_random + s_layers + s_apps))
  collect_part layers "$s_layers" $((s_layers + s_apps))
  collect_part apps "$s_apps" "$s_apps"
fi

# 3. Training.
now=$work/now
rm -rf "$now" && mkdir -p "$now"
helper merge "$now/raw_local.jsonl" "$work/samples/random" "$work/samples/layers"
helper merge "$now/raw_apps.jsonl" "$work/samples/apps"
step "3/5 refeaturizing this machine's samples on $described"
$bin/candor_refeaturize "$now/raw_local.jsonl" "$now/local.jsonl" --machine "$described" >&2
$bin/candor_refeaturize "$now/raw_apps.jsonl" "$now/apps.jsonl" --machine "$described" >&2
helper usable "$now/local.jsonl" "$now/apps.jsonl"
step "3/5 refeaturizing the repository's pools, each on its machine description"
rm -rf "$work/pools"
models/learned/refeaturize_pools.sh "$work/pools" "${pool_list[@]}"
for entry in "${pool_list[@]}"; do name=${entry%@*}; cat "$work/pools/${name//\//_}.jsonl"; done > "$now/training.jsonl"
cat "$now/local.jsonl" >> "$now/training.jsonl"
bag=$work/bag.json
train_args=(--samples "$now/training.jsonl" --prior-weight 30)
[ -z "$epochs" ] || train_args+=(--epochs "$epochs")
digest=$( (sha256sum < "$now/training.jsonl"; printf '%s\n' "${train_args[@]}") | sha256sum | cut -d' ' -f1)
if [ -f "$bag" ] && [ "$(cat "$bag.digest" 2>/dev/null)" = "$digest" ]; then
  step "3/5 the training set is unchanged since the last run: keeping its bag ($bag)"
else
  rm -f "$bag" "$bag.digest" "$bag".fold*
  step "3/5 training the bag: four members, $(wc -l < "$now/training.jsonl") samples (their logs: $bag.fold*.log)"
  set -m  # the members in a process group of their own, which an interrupted run stops
  PYTHON=$python models/learned/train_bagged.sh "$bag" "${train_args[@]}" &
  trainer=$!
  set +m
  trap 'kill -- -$trainer 2>/dev/null && echo "adapt.sh: training stopped" >&2 || true' EXIT
  started=$(date +%s) total_epochs=${epochs:-$(sed -n 's/.*"--epochs".*default=\([0-9]*\).*/\1/p' models/learned/train.py)}
  # A line every 30 s (PROGRESS_SECONDS): each member's last epoch in its log, the share done
  # and the time left.
  while kill -0 $trainer 2>/dev/null; do
    for _ in $(seq "${PROGRESS_SECONDS:-30}"); do kill -0 $trainer 2>/dev/null && sleep 1; done
    kill -0 $trainer 2>/dev/null || break
    done_epochs=0 members=
    for k in 1 2 3 4; do
      log=$bag.fold$k.log e=0 state=waiting
      if [ -f "$log" ]; then
        state=starting
        if tail -n 1 "$log" | grep -q '^{'; then
          e=$total_epochs state=done
        else
          last=$(tr '\r' '\n' < "$log" | grep -oE 'epoch [0-9]+' | tail -n 1 | cut -d' ' -f2 || true)
          [ -z "$last" ] || e=$last state="epoch $last/$total_epochs"
        fi
      fi
      done_epochs=$((done_epochs + e)) members+="${members:+, }$k $state"
    done
    elapsed=$(( $(date +%s) - started )) left=
    [ "$done_epochs" -eq 0 ] || [ "$done_epochs" -eq $((4 * total_epochs)) ] ||
      left=", about $(clock $(( elapsed * (4 * total_epochs - done_epochs) / done_epochs ))) left"
    echo "[adapt train] members $members  $(( 100 * done_epochs / (4 * total_epochs) ))%  $(clock $elapsed) elapsed$left" >&2
  done
  wait $trainer || die "training failed (the members' logs: $bag.fold*.log)"
  trap - EXIT
  echo "$digest" > "$bag.digest"
fi
mkdir -p "$(dirname "$out")"
cp "$bag" "$out"

# 4. Evaluation on this machine's samples.
step "4/5 evaluating on this machine's held-out pipelines and apps"
evaluate() {  # WEIGHTS OUT_JSON
  $bin/candor model eval --samples "$now/local.jsonl" --apps-samples "$now/apps.jsonl" --machine "$described" \
    --weights "$1" --no-speed --json > "$2" || die "candor model eval failed on $1"
}
evaluate "$out" "$out.eval.json"
baseline_eval=-
if [ -n "$baseline" ]; then evaluate "$baseline" "$work/default.eval.json"; baseline_eval=$work/default.eval.json; fi
helper evaluate "$out.eval.json" "$baseline_eval" "${baseline:-analytic model}" "$work/evaluation.json"

# 5. The weights, and the default.
step "5/5 wrote $out (its evaluation: $out.eval.json; the table's: $work/evaluation.json)"
if [ $install = 0 ]; then
  echo "search with it: CANDOR_MODEL=$out build/bin/candor search APP ...; make it the default: rerun with --install"
  exit 0
fi
if ! "$python" -c 'import json, sys; sys.exit(0 if json.load(open(sys.argv[1]))["at_least_as_good"] else 1)' \
     "$work/evaluation.json"; then
  echo "not installed: $install_to stays the default (CANDOR_MODEL=$out searches with the adapted weights)"
  exit 3
fi
replaced=
if [ -f "$install_to" ]; then
  cp "$install_to" "$work/replaced_weights.json"
  replaced=" (the weights it replaced: $work/replaced_weights.json)"
fi
cp "$out" "$install_to.adapt.tmp" && mv "$install_to.adapt.tmp" "$install_to"
echo "installed: $install_to is the default model now$replaced"
[ "$install_to" != "$repo/models/learned/weights.json" ] ||
  echo "(git checkout models/learned/weights.json restores the shipped weights)"
