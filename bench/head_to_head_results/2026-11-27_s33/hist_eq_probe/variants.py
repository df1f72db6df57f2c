import json, subprocess, sys, shlex, os
# usage: variants.py APP BASEPINS_JSON OUT.jsonl 'name:choice=value,choice=value' ...
app, base, out = sys.argv[1], json.load(open(sys.argv[2]))["pins"], sys.argv[3]
lines = []
for spec in ["base:"] + sys.argv[4:]:
    name, _, changes = spec.partition(":")
    pins = {p.split("=")[0]: p.split("=", 1)[1] for p in base}
    for c in filter(None, changes.split(",")):
        k, v = c.split("=", 1)
        pins[k] = v
    drop = [k for k, v in pins.items() if v == "*"]
    for k in drop: del pins[k]
    args = ["build/bin/candor", "search", app, "--budget", "time=5s", "--machine", os.environ.get("M","data/machine_avx512.json"), "--json"]
    for k, v in pins.items(): args += ["--pin", f"{k}={v}"]
    r = subprocess.run(args, capture_output=True, text=True)
    try:
        d = json.loads(r.stdout.strip().splitlines()[-1])
    except Exception:
        print(name, "FAILED", r.stderr[-500:]); continue
    print(name, "predicted_ms", round(d["predicted_ms"], 5), file=sys.stderr)
    lines.append(json.dumps(d["schedule_json"]))
open(out, "w").write("\n".join(lines) + "\n")
