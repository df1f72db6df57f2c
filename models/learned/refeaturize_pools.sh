#!/usr/bin/env bash
# The repository's dataset pools refeaturized with this build's featurization and analytic
# model, each on the machine description it was measured with: dataset/zen4_machine.json, or
# for NAME@MACHINE the dataset's file MACHINE (a pool of another machine class):
#   models/learned/refeaturize_pools.sh DIR NAME[@MACHINE]...
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
for entry in "$@"; do
  name=${entry%@*}
  machine=zen4_machine.json
  [ "$name" = "$entry" ] || machine=${entry#*@}
  flat=${name//\//_}
  zcat "$data/$name.jsonl.gz" > "$dir/raw_$flat.jsonl"
  build/bin/candor_refeaturize "$dir/raw_$flat.jsonl" "$dir/$flat.jsonl" --machine "$data/$machine" >&2
  rm "$dir/raw_$flat.jsonl"
done
