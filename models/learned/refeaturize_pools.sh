#!/usr/bin/env bash
# The repository's dataset pools refeaturized with this build's featurization and analytic
# model, on the Zen 4 machine description they were measured with (dataset/zen4_machine.json):
#   models/learned/refeaturize_pools.sh DIR NAME...
# writes dataset/NAME.jsonl.gz as DIR/NAME.jsonl, slashes in NAME as '_'. Needs
# build/bin/candor_refeaturize (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:?usage: refeaturize_pools.sh DIR NAME...}
shift
data=models/learned/dataset
[ -x build/bin/candor_refeaturize ] ||
  { echo "refeaturize_pools.sh: error: build/bin/candor_refeaturize is missing (run scripts/setup.sh)" >&2; exit 1; }
mkdir -p "$dir"
for name in "$@"; do
  flat=${name//\//_}
  zcat "$data/$name.jsonl.gz" > "$dir/raw_$flat.jsonl"
  build/bin/candor_refeaturize "$dir/raw_$flat.jsonl" "$dir/$flat.jsonl" --machine "$data/zen4_machine.json" >&2
  rm "$dir/raw_$flat.jsonl"
done
