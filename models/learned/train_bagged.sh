#!/usr/bin/env bash
# Bagging over the validation folds: trains one member per fold, each leaving the training
# pipelines whose seed % 5 == R (R = 1..4) out (train.py --validation-remainder R), and joins
# the four into one ensemble (ensemble.py: the median of their predictions). Every training
# pipeline is left out of one member, so each member reports its accuracy on pipelines it
# never saw, and the ensemble averages away the members' own errors.
#   models/learned/train_bagged.sh OUT [train.py options ...]
# writes OUT (the ensemble) and OUT.fold1.json .. OUT.fold4.json (the members, with their logs
# beside them); members train JOBS at a time (default: the number of cores).
# Options after OUT go to every member (--samples FILE ... required); --analytic-band K goes
# to the ensemble instead.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: train_bagged.sh OUT --samples FILE [--samples FILE ...] [train.py options]" >&2
  exit 2
fi
out=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-/usr/bin/python3}
jobs=${JOBS:-$(nproc)}
member_args=() ensemble_args=()
while [ $# -gt 0 ]; do
  if [ "$1" = --analytic-band ]; then
    [ $# -ge 2 ] || { echo "train_bagged.sh: error: --analytic-band needs a value" >&2; exit 2; }
    ensemble_args=(--analytic-band "$2")
    shift 2
  else
    member_args+=("$1")
    shift
  fi
done
export python here out
printf '%s\n' 1 2 3 4 | xargs -P "$jobs" -I{} bash -c '
  if ! "$python" "$here/train.py" "$@" --validation-remainder {} --out "$out.fold{}.json" \
      > "$out.fold{}.log" 2>&1; then
    echo "train_bagged.sh: error: member {} failed (its log: $out.fold{}.log):" >&2
    tail -n 5 "$out.fold{}.log" >&2
    exit 255
  fi
  echo "member {}: $(tail -n 1 "$out.fold{}.log")" >&2' _ "${member_args[@]}"
"$python" "$here/ensemble.py" "${ensemble_args[@]}" --out "$out" "$out".fold{1,2,3,4}.json
