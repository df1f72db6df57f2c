# usage: run.sh TAG APP...  (candor binary in /tmp/exp/candor_TAG)
tag=$1; shift
cd /work/main
for app in "$@"; do
  CANDOR_MACHINE=/work/main/data/machine_avx2.json /tmp/exp/candor_$tag search $app --budget time=30 --json > /tmp/exp/$tag.$app.json 2>/dev/null
  python3 - $tag $app <<'PY'
import json,sys
tag,app=sys.argv[1:]
old=json.load(open(f'/work/main/bench_results/s26/schedules/{app}.candor.json'))
new=json.loads(open(f'/tmp/exp/{tag}.{app}.json').read().strip().splitlines()[-1])
with open(f'/tmp/exp/{tag}.{app}.jsonl','w') as f:
    f.write(json.dumps(old)+'\n'); f.write(json.dumps(new['schedule_json'])+'\n')
print(app, 'same pick' if old==new['schedule_json'] else 'new pick', 'predicted', round(new['predicted_ms'],3))
PY
  for rep in 1 2; do
    CANDOR_MACHINE=/work/main/data/machine_avx2.json /tmp/exp/candor_$tag measure $app --schedules /tmp/exp/$tag.$app.jsonl --interleave --min-seconds 2 --json 2>/dev/null | tail -1 | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print('   ratio new/s26', round(d.get('ratio_to_first',-1),3), d.get('ok'))"
  done
done
