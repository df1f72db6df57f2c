#!/usr/bin/env python3
"""Prediction error of candor's cost model on the schedules it emits: for every example
app, every held-out corpus generator (bench/corpus) and held-out random pipelines, the
runtime the model predicted for the schedule `candor search` picked next to the runtime
`candor search` measured for it (verified against the reference, median of timed runs).

Per set: the median and the worst |log(predicted / measured)| (as a ratio: 1.3 means 30%
off either way), how many are off by more than 3x, and the geometric mean of
predicted / measured (below 1: the model is optimistic). Random pipelines take seeds from
--random-first on (1000: above every seed the dataset holds, so none was trained on).

Each search runs in its own process with a time limit; results are appended to
OUT/predictions.jsonl as they come, and a rerun skips what is there (--fresh starts over).
The table goes to stdout, OUT/prediction_error.dat holds the points, and with gnuplot
installed OUT/prediction_error.png plots them (bench/prediction_error_plot.gp).

  bench/prediction_error.py --out DIR [--sets apps,corpus,random] [--random 100] [--budget time=10s]
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models", "learned"))
from progress import Progress  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def names(candor, corpus):
    args = [candor, "apps"] + (["--corpus"] if corpus else [])
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout.split()


def search(candor, spec, budget, timeout):
    """One `candor search SPEC --json`: its result, or the reason there is none."""
    start = time.monotonic()
    try:
        run = subprocess.run([candor, "search", spec, "--json", "--budget", budget], capture_output=True,
                             text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"ok": False, "failure": f"timeout after {timeout:.0f} s"}
    found = None
    for line in run.stdout.splitlines():
        if line.startswith("{"):
            try:
                found = json.loads(line)
            except json.JSONDecodeError:
                pass
    if not found or not found.get("measured") or not found.get("runtime_ms"):
        tail = (run.stderr.strip().splitlines() or [f"exit status {run.returncode}"])[-1]
        return {"ok": False, "failure": tail[:300], "seconds": time.monotonic() - start}
    return {"ok": True, "predicted_ms": found["predicted_ms"], "measured_ms": found["runtime_ms"],
            "lower_bound_ms": found.get("lower_bound_ms"), "cost_model": found.get("cost_model"),
            "seconds": time.monotonic() - start}


def summary(rows):
    """(n, median ratio, worst ratio, worst spec, count beyond 3x, geomean predicted/measured)."""
    logs = sorted((abs(math.log(r["predicted_ms"] / r["measured_ms"])), r["spec"]) for r in rows)
    if not logs:
        return None
    n = len(logs)
    mid = logs[n // 2][0] if n % 2 else (logs[n // 2 - 1][0] + logs[n // 2][0]) / 2
    bias = math.exp(sum(math.log(r["predicted_ms"] / r["measured_ms"]) for r in rows) / n)
    beyond = sum(1 for v, _ in logs if v > math.log(3))
    return n, math.exp(mid), math.exp(logs[-1][0]), logs[-1][1], beyond, bias


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, help="output folder (predictions.jsonl, the table's data, the plot)")
    p.add_argument("--candor", default=os.path.join(HERE, "..", "build", "bin", "candor"))
    p.add_argument("--sets", default="apps,corpus,random", help="comma-separated: apps, corpus, random")
    p.add_argument("--random", type=int, default=100, help="random pipelines (seeds from --random-first)")
    p.add_argument("--random-first", type=int, default=1000)
    p.add_argument("--budget", default="time=10s", help="each search's budget (candor search --budget)")
    p.add_argument("--fresh", action="store_true", help="forget the results of earlier runs in --out")
    p.add_argument("--no-plot", action="store_true")
    o = p.parse_args()

    os.makedirs(o.out, exist_ok=True)
    journal = os.path.join(o.out, "predictions.jsonl")
    if o.fresh and os.path.exists(journal):
        os.remove(journal)
    done = {}
    if os.path.exists(journal):
        for line in open(journal):
            try:
                r = json.loads(line)
                done[r["spec"]] = r
            except (json.JSONDecodeError, KeyError):
                pass

    sets = [s for s in o.sets.split(",") if s]
    todo = []
    for s in sets:
        if s == "apps":
            todo += [("apps", n) for n in names(o.candor, False)]
        elif s == "corpus":
            todo += [("corpus", n) for n in names(o.candor, True)]
        elif s == "random":
            todo += [("random", f"random:{seed}") for seed in range(o.random_first, o.random_first + o.random)]
        else:
            sys.exit(f"prediction_error: error: unknown set '{s}' (apps, corpus, random)")

    seconds = 10.0
    if o.budget.startswith("time=") and o.budget[5:].rstrip("s").replace(".", "", 1).isdigit():
        seconds = float(o.budget[5:].rstrip("s"))
    timeout = seconds + 300
    progress = Progress("prediction")
    pending = [t for t in todo if t[1] not in done]
    for k, (s, spec) in enumerate(pending):
        r = search(o.candor, spec, o.budget, timeout)
        r.update({"set": s, "spec": spec, "budget": o.budget})
        done[spec] = r
        with open(journal, "a") as f:
            f.write(json.dumps(r) + "\n")
        what = f"{s} {spec}: " + (f"predicted {r['predicted_ms']:.3g} ms, measured {r['measured_ms']:.3g} ms"
                                  if r["ok"] else f"failed: {r['failure']}")
        progress.update((k + 1) / len(pending), what)
    progress.finish(f"{len(pending)} searches")

    rows = [dict(done[spec], set=s) for s, spec in todo if done.get(spec, {}).get("ok")]
    # The data first: a reader that closes stdout early (head, grep -q) cannot lose it.
    dat = os.path.join(o.out, "prediction_error.dat")
    with open(dat, "w") as f:
        f.write("# set index, pipeline, predicted ms, measured ms (index: 0 apps, 1 corpus, 2 random)\n")
        for r in rows:
            f.write(f"{['apps', 'corpus', 'random'].index(r['set'])} {r['spec']} {r['predicted_ms']} {r['measured_ms']}\n")
    print(f"{'set':<8} {'n':>4} {'median':>8} {'worst':>8}  {'worst pipeline':<26} {'>3x':>4} {'pred/meas':>10}")
    for s in sets:
        got = summary([r for r in rows if r["set"] == s])
        failed = sum(1 for t, spec in todo if t == s and not done.get(spec, {}).get("ok"))
        if not got:
            print(f"{s:<8} {0:>4}   (no result; {failed} failed)")
            continue
        n, median, worst, worst_spec, beyond, bias = got
        print(f"{s:<8} {n:>4} {median:>7.2f}x {worst:>7.2f}x  {worst_spec:<26} {beyond:>4} {bias:>10.3f}"
              + (f"   ({failed} failed)" if failed else ""))
    print("median, worst: |log(predicted / measured)| as a ratio; >3x: pipelines off by more than 3x; "
          f"pred/meas: geometric mean of predicted / measured. Budget {o.budget} per search.")
    for s in ("apps", "corpus"):
        subset = sorted((r for r in rows if r["set"] == s),
                        key=lambda r: -abs(math.log(r["predicted_ms"] / r["measured_ms"])))
        if subset:
            print(f"\n{s}: predicted / measured ms, worst first")
            for r in subset:
                print(f"  {r['spec']:<26} {r['predicted_ms']:>10.4g} {r['measured_ms']:>10.4g} "
                      f"{r['predicted_ms'] / r['measured_ms']:>8.3f}")

    if o.no_plot or not rows:
        return
    if not shutil.which("gnuplot"):
        print(f"gnuplot not found (apt-get install gnuplot-nox): the data is in {dat}", file=sys.stderr)
        return
    png = os.path.join(o.out, "prediction_error.png")
    script = os.path.join(HERE, "prediction_error_plot.gp")
    subprocess.run(["gnuplot", "-e", f"datafile='{dat}'; outfile='{png}'", script], check=False)
    print(f"plot: {png}", file=sys.stderr)


if __name__ == "__main__":
    main()
