#!/bin/bash
# pair_prices.sh MODEL: prices stop 57's A/B picks (both sides of each app) under MODEL and says whether the
# priced order matches the measured one (ratios.txt medians, pairs measured > 5% apart). Run from the repository root.
model=$1
AB=bench/head_to_head_results/2026-12-04_s57/bag_ab
M=bench/head_to_head_results/2026-12-03_s55/calibration/machine_zen4.json
price() {  # app result.json
  args=(); while read -r l; do [ -n "$l" ] && args+=(--pin "$l"); done < <(python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["pins"]))' $2)
  CANDOR_MODEL=$model build/bin/candor search $1 --machine $M --search greedy "${args[@]}" --json --timing-lock none 2>/dev/null | tail -1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["predicted_ms"])'
}
right=0 total=0
for app in $(ls $AB/*.base.json | xargs -n1 basename | sed 's/.base.json//'); do
  measured=$(grep "^$app " $AB/ratios.txt | awk '{s+=$4; n++} END {print s/n}')
  pn=$(price $app $AB/$app.json); pb=$(price $app $AB/$app.base.json)
  line=$(python3 -c "
m=$measured; p=$pn/$pb
ok = '' if abs(m-1)<0.05 else ('right' if (m>1)==(p>1) else 'WRONG')
print(f'$app measured {m:.3f} priced {p:.3f} {ok}')")
  echo "$line"
  case "$line" in *right) right=$((right+1)); total=$((total+1));; *WRONG) total=$((total+1));; esac
done
echo "$model: $right of $total pairs measured >5% apart priced in the measured order"
