#!/usr/bin/python3
# variant.py BASE.json OTHER.json [SUBSTRING | CHOICE=VALUE]...: prints BASE's pins, one a line, where every
# choice whose name contains one of the substrings takes OTHER's value and each CHOICE=VALUE replaces that
# choice's value. BASE and OTHER are `candor search --json` results.
import json
import sys

base = json.load(open(sys.argv[1]))['pins']
other = dict(p.split('=', 1) for p in json.load(open(sys.argv[2]))['pins'])
edits = dict(a.split('=', 1) for a in sys.argv[3:] if '=' in a)
substrings = [a for a in sys.argv[3:] if '=' not in a]
for p in base:
    k, v = p.split('=', 1)
    if any(s in k for s in substrings):
        v = other[k]
    print(f"{k}={edits.get(k, v)}")
