#!/usr/bin/env python3
"""Joins weights trained from different seeds into one ensemble (models/learned/model.h):

    /usr/bin/python3 models/learned/ensemble.py --out W [--analytic-band K] W_SEED0 W_SEED1 ...

The ensemble predicts the median of its members' predictions, then holds it within
the analytic band K if one is given (a band in a member is dropped: the ensemble's applies once).
Members must be candor-learned-model-1 files; their provenance is kept, with this command's.
"""
import argparse
import datetime
import json
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("members", nargs="+", help="weights files written by train.py")
    ap.add_argument("--out", required=True)
    ap.add_argument("--analytic-band", type=float, default=0)
    args = ap.parse_args()
    if args.analytic_band and args.analytic_band <= 1:
        sys.exit("ensemble.py: error: --analytic-band must be above 1")
    members = []
    for path in args.members:
        try:
            with open(path) as f:
                w = json.load(f)
        except (OSError, json.JSONDecodeError) as e:
            sys.exit(f"ensemble.py: error: {path}: {e}")
        if w.get("format") != "candor-learned-model-1":
            sys.exit(f"ensemble.py: error: {path}: not a candor-learned-model-1 weights file")
        w.pop("analytic_band", None)
        members.append(w)
    ensemble = {
        "format": "candor-learned-ensemble-1",
        "members": members,
        "provenance": {
            "command": "/usr/bin/python3 models/learned/ensemble.py " + " ".join(sys.argv[1:]),
            "date": datetime.date.today().isoformat(),
            "members": [m.get("provenance", {}) for m in members],
        },
    }
    if args.analytic_band:
        ensemble["analytic_band"] = args.analytic_band
    with open(args.out, "w") as f:
        json.dump(ensemble, f)
        f.write("\n")


if __name__ == "__main__":
    main()
