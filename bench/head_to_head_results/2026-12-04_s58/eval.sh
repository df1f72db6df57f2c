#!/bin/bash
# eval.sh WEIGHTS: held-out R2 / pairwise, apps pairwise, near-optimal app pairs (stop 57's evaluation)
# POOL: the refeaturized pools (README); run from the repository root
P=${POOL:?set POOL to the folder of refeaturized pools}
build/bin/candor model eval --samples $P/2026-11-27_samples.jsonl --samples $P/2026-11-29_samples_512_1024.jsonl \
  --apps-samples $P/2026-11-30_apps_samples.jsonl --near-optimal-samples $P/tuned_apps.jsonl \
  --no-speed \
  --machine bench/head_to_head_results/2026-12-03_s55/calibration/machine_zen4.json --weights $1 --json > $1.eval.json
python3 - $1 <<'PY'
import json, sys
r = json.load(open(sys.argv[1] + ".eval.json"))
print(f"{sys.argv[1]}: heldout R2 {r['heldout_r2_log']:.3f} pairwise {r['heldout_pairwise']:.3f} apps {r['apps_pairwise']:.3f} near-optimal {r['near_optimal_pairwise']:.3f}")
PY
