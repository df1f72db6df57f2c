#!/usr/bin/python3
# variant.py BASE.json OTHER.json KEY_PREFIX... : BASE's pins with every pin whose choice starts with
# one of the prefixes (e.g. "location(input_clamped)" or "(input_clamped") taken from OTHER; prints the pins
import json, sys
base = json.load(open(sys.argv[1]))['pins']; other = dict(p.split('=', 1) for p in json.load(open(sys.argv[2]))['pins'])
out = []
for p in base:
    k, v = p.split('=', 1)
    if any(s in k for s in sys.argv[3:]): v = other[k]
    out.append(f"{k}={v}")
print(" ".join(out))
