#!/usr/bin/env python3
"""How often the analytic model orders two measured schedules of one pipeline right.

    python3 ordering.py SAMPLES.jsonl [...]

Pairs of one pipeline measured in one process (same `batch`: `ratio_to_first` compares them)
or, for files without batches, by `runtime_ms`; pairs less than 5% apart are skipped. The
samples must carry the model's current `predicted_s`: re-price them first with
`build/bin/candor_refeaturize IN OUT --machine data/machine_avx512.json`.
"""
import gzip
import json
import sys
from collections import defaultdict


def opener(path):
    return gzip.open(path, 'rt') if path.endswith('.gz') else open(path)


for path in sys.argv[1:]:
    groups = defaultdict(list)
    for line in opener(path):
        s = json.loads(line)
        if not s.get('ok') or not s.get('predicted_s'):
            continue
        batched = bool(s.get('ratio_to_first'))
        groups[(s['pipeline'], s.get('batch') if batched else None, batched)].append(s)
    right = wrong = 0
    for (_, _, batched), samples in groups.items():
        for i, a in enumerate(samples):
            for c in samples[i + 1:]:
                r = a['ratio_to_first'] / c['ratio_to_first'] if batched else a['runtime_ms'] / c['runtime_ms']
                if abs(r - 1) < 0.05:
                    continue
                ok = (a['predicted_s'] < c['predicted_s']) == (r < 1)
                right += ok
                wrong += not ok
    print(f"{path}: {right}/{right + wrong} = {100 * right / max(1, right + wrong):.1f}%")
