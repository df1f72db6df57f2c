# Share of stage inputs (standardised as a network reads them) beyond 3 deviations of its training mean,
# on held-out random pipelines and on the apps' tuned samples: how far outside its training inputs a set lies.
import json, os, sys
POOL = os.environ['POOL']  # the refeaturized pools
sys.path.insert(0, 'models/learned')  # run from the repository root with /usr/bin/python3
import train, torch
w = json.load(open(sys.argv[1]))
w = w['members'][0] if 'members' in w else w
norm = w['normalization']; per_point = set(norm.get('per_point', []))
names = w['feature_inputs'] + w['term_inputs']
scale, mean, std = (torch.tensor(norm[k], dtype=torch.float64) for k in ('scale', 'mean', 'std'))
for label, path in (('held-out random', POOL + '/2026-11-27_samples.jsonl'), ('random 512/1024', POOL + '/2026-11-29_samples_512_1024.jsonl'), ('tuned apps', POOL + '/tuned_apps.jsonl')):
    rows = []
    for line in open(path):
        s = json.loads(line)
        if label.startswith('held') and s.get('seed', 1) % 5: continue
        for st in s['stages']:
            f, t = st['features'], st['terms']
            p = max(1.0, f.get('stage_points', 0.0))
            rows.append([(f[n] if n in f else t.get(n, 0.0)) / (p if n in per_point else 1) for n in names])
    z = (train.signed_log1p(torch.tensor(rows, dtype=torch.float64) * scale) - mean) / std
    far = (z.abs() > 3).double()
    worst = sorted(zip(far.mean(0).tolist(), names), reverse=True)[:5]
    print(f"{label}: {len(rows)} stages, {100*far.mean():.1f}% of inputs beyond 3 sd, stages with any: {100*(far.sum(1)>0).double().mean():.0f}%; most: " + ", ".join(f"{n} {100*v:.0f}%" for v, n in worst))
