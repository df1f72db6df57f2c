cd /work/main
for app in bilateral_grid depthwise_separable_conv conv_relu lens_blur; do
  python3 -c "
import json
a=json.load(open('bench/head_to_head_results/2026-11-26_s26/schedules/$app.candor_tuned.json'))
b=json.load(open('bench/head_to_head_results/2026-11-26_s27/schedules/$app.candor_tuned.json'))
open('/tmp/exp/pair.$app.jsonl','w').write(json.dumps(a)+'\n'+json.dumps(b)+'\n')
print('$app', 'same' if a==b else 'different')"
  for rep in 1 2; do
    CANDOR_MACHINE=data/machine_avx2.json build/bin/candor measure $app --schedules /tmp/exp/pair.$app.jsonl --interleave --min-seconds 2 --json 2>/dev/null | tail -1 | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print('   s27/s26 tuned', round(d.get('ratio_to_first',-1),3))"
  done
done
