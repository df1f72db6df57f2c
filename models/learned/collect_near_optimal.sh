#!/bin/sh
# Near-optimal samples of random pipelines, the kind of pairs a search's last choices are
# between: for each training pipeline (seed % 5 != 0), or with SPLIT=heldout each held-out
# one (seed % 5 == 0, for evaluation only), that OUT has no samples of yet, a short
# model-only search keeps its 8 best schedules and autotuning times them side by side;
# every timed schedule is appended to OUT as a sample of its process's batch
# (`candor search --autotune 8 --samples OUT`). Resumable: run it again. With SIZE=N the
# pipelines' outputs are NxN (random:SEED@N) instead of the generator's default; with
# FAMILY=layers they are DNN-layer pipelines (layers:SEED) instead of image ones.
#   [SPLIT=heldout] [SIZE=N] [FAMILY=layers] collect_near_optimal.sh CANDOR MACHINE OUT FIRST_SEED LAST_SEED
set -eu
candor=$1 machine=$2 out=$3 first=$4 last=$5
wanted() {  # is seed $1 in the split asked for?
  if [ "${SPLIT:-train}" = heldout ]; then [ $(($1 % 5)) -eq 0 ]; else [ $(($1 % 5)) -ne 0 ]; fi
}
total=0
for seed in $(seq "$first" "$last"); do
  if wanted "$seed"; then total=$((total + 1)); fi
done
done_count=0
for seed in $(seq "$first" "$last"); do
  wanted "$seed" || continue
  done_count=$((done_count + 1))
  family=${FAMILY:-random}
  spec=$family:$seed name=${family}_$seed
  if [ -n "${SIZE:-}" ]; then spec=$spec@$SIZE name=${name}_$SIZE; fi
  if [ -f "$out" ] && grep -q "\"pipeline\":\"$name\"" "$out"; then continue; fi
  start=$(date +%s)
  "$candor" search "$spec" --budget time=5s --autotune 8 --samples "$out" --machine "$machine" \
    > /dev/null 2>&1 || echo "$spec: candor search failed (its samples so far are kept)" >&2
  samples=$(wc -l < "$out" 2>/dev/null || echo 0)
  echo "[near-optimal] $spec done ($done_count/$total pipelines, $samples samples, $(( $(date +%s) - start )) s)" >&2
done
