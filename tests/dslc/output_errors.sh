#!/usr/bin/env bash
# dslc on hostile paths and inputs: each case exits with status 1 and a message naming the
# path (never an abort, a hang, a half-written file or a replaced device).
#   output_errors.sh DSLC SPEC
set -u
dslc=$1 spec=$2
source "$(dirname "$0")/../expect_error.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

expect_error "cannot write /proc/self/x/y.h: cannot create directory /proc/self/x" \
  "$dslc" "$spec" --header /proc/self/x/y.h --source t.cpp
mkdir adir
expect_error "cannot write adir: it is a directory" "$dslc" "$spec" --header adir --source t.cpp
if [ -n "$(ls -A adir)" ] || ls -a | grep -q 'XXXX\|\.tmp'; then
  echo "FAIL: temporary files left behind:"; ls -aR; failures=$((failures + 1))
fi
expect_error "cannot write /proc/self/nope/d" \
  "$dslc" "$spec" --header a.h --source b.cpp --depfile /proc/self/nope/d
expect_error "cannot write /dev/full: it is not a regular file" \
  "$dslc" "$spec" --header a.h --source /dev/full
[ -c /dev/full ] || { echo "FAIL: /dev/full is no longer a device"; failures=$((failures + 1)); }
expect_error "are the same file" "$dslc" "$spec" --header same.h --source ./same.h

# Write-if-changed compares sizes first: a 20 GB sparse file in the way is replaced, not read.
truncate -s 20G big.cpp
if ! timeout 20 "$dslc" "$spec" --header big.h --source big.cpp; then
  echo "FAIL: dslc did not replace a large existing output"; failures=$((failures + 1))
elif [ "$(stat -c %s big.cpp)" -ge 1000000000 ]; then
  echo "FAIL: the large output was not replaced"; failures=$((failures + 1))
fi

mkfifo pipe
printf 'space s;\ninclude "pipe";\n' > fifo.space
expect_error "cannot open included file 'pipe': not a regular file" "$dslc" fifo.space
printf 'space s;\ninclude "/dev/urandom";\n' > random.space
expect_error "cannot open included file '/dev/urandom': not a regular file" "$dslc" random.space
expect_error "cannot open file 'pipe': not a regular file" "$dslc" pipe

# 100,000 formals: refused at once (each formal is a loop level of the generated code).
{
  printf 'space s;\nset s;\nenum E { A, B }\nchoice c('
  seq -f 'a%g: s' 0 99999 | paste -sd, -
  printf ') : E;\n'
} > wide.space
expect_error "choice 'c' has 100000 formals; at most 16 are supported" "$dslc" wide.space

if [ "$failures" -ne 0 ]; then echo "$failures case(s) failed"; exit 1; fi
echo "all cases exit 1 with a clear error"
