# Each member's price of one sample (a pick), with its per-stage coefficients x terms where they depart from the analytic stage time.
import json, sys
sys.path.insert(0, 'models/learned')  # run from the repository root with /usr/bin/python3
import train, torch
w = json.load(open(sys.argv[1])); members = w['members'] if 'members' in w else [w]
s = json.loads(open(sys.argv[2]).readline())
term_names = train.COST_TERMS + [n for n, _ in train.COUNT_TERMS]
a = sum(st['terms']['total_s'] for st in s['stages'])
print(f"{sys.argv[2]}: analytic {a*1e3:.3f} ms")
for mi, m in enumerate(members):
    norm = m['normalization']; pp = set(norm.get('per_point', []))
    scale, mean, std = (torch.tensor(norm[k], dtype=torch.float64) for k in ('scale', 'mean', 'std'))
    layers = [(torch.tensor(l['weight'], dtype=torch.float64), torch.tensor(l['bias'], dtype=torch.float64)) for l in m['layers']]
    total = m['pipeline_overhead_s']; lines = []
    for st in s['stages']:
        f, t = st['features'], st['terms']
        p = max(1.0, f.get('stage_points', 0.0))
        x = torch.tensor([(f.get(n, 0.0)/(p if n in pp else 1)) for n in m['feature_inputs']] + [t[n]/(p if n in pp else 1) for n in m['term_inputs']], dtype=torch.float64)
        h = (train.signed_log1p(x * scale) - mean) / std
        for i, (W, b) in enumerate(layers):
            h = W @ h + b
            if i + 1 < len(layers): h = torch.relu(h)
        coef = torch.nn.functional.softplus(h).tolist()
        vals = [t[n] for n in train.COST_TERMS] + [f.get(n, 0.0) * sc for n, sc in train.COUNT_TERMS]
        stage = sum(c * v for c, v in zip(coef, vals)); total += stage
        big = ", ".join(f"{n} {c:.2f}x{v*1e3:.3f}" for n, c, v in zip(term_names, coef, vals) if c * v > 0.01e-3)
        lines.append(f"   {st['func']}.{st['stage']} {'slide' if f.get('sliding') else ''} prods {f.get('productions',0):.0f} analytic {t['total_s']*1e3:.3f} learned {stage*1e3:.3f}: {big}")
    print(f" member {mi}: {total*1e3:.3f} ms"); print("\n".join(lines))
