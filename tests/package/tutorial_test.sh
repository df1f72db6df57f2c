#!/bin/bash
# tutorial_test.sh BUILD_DIR SOURCE_DIR
# Follows docs/tutorial.md as a newcomer does, in an empty project folder with HOME a fresh
# temporary folder. Every fenced block of the tutorial has a marker on the line before it, and
# the blocks are acted on in order:
#   <!-- tutorial-file: NAME -->      the next part of the project's file NAME (consecutive
#                                     parts of one file are joined by one blank line)
#   <!-- tutorial-run: checkout -->   shell commands, run in a candor checkout whose build
#                                     folder is BUILD_DIR
#   <!-- tutorial-run: project -->    shell commands, run in the project folder
#   <!-- tutorial-output -->          what the last commands printed, line by line, with the
#                                     numbers and the loop order (which vary) masked
# Then the files assembled must be examples/consumer_space's, byte for byte: the example is
# the tutorial's project, so the two cannot drift apart.
set -euo pipefail
build=$(realpath "$1")
source=$(realpath "$2")
tutorial=$source/docs/tutorial.md
example=$source/examples/consumer_space
tmp=$(mktemp -d "${TMPDIR:-/tmp}/candor_tutorial.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
unset CANDOR_MACHINE CANDOR_MODEL CANDOR_SEARCH CANDOR_PINS CANDOR_VERIFY CANDOR_BUDGET CANDOR_VERBOSE

fail() { echo "FAIL: $*" >&2; exit 1; }

# The blocks, in order: $tmp/blocks/N holds block N, kinds[N] and args[N] its marker.
mkdir "$tmp/blocks" "$tmp/home" "$tmp/checkout" "$tmp/project"
ln -s "$build" "$tmp/checkout/build"
kinds=() args=() lines=()
marker='' in_block=0 n=0 lineno=0
while IFS= read -r line || [[ -n $line ]]; do
  lineno=$((lineno + 1))
  if ((in_block)); then
    if [[ $line == '```' ]]; then in_block=0; else printf '%s\n' "$line" >> "$tmp/blocks/$n"; fi
  elif [[ $line == '```'* ]]; then
    [[ -n $marker ]] || fail "tutorial.md:$lineno: a code block without a tutorial marker on the line before it"
    n=$((n + 1)) in_block=1
    read -r kind arg <<< "$marker"
    kinds[n]=$kind args[n]=$arg lines[n]=$lineno marker=''
    : > "$tmp/blocks/$n"
  elif [[ $line =~ ^'<!-- tutorial-'(file:\ [A-Za-z0-9_.]+|run:\ checkout|run:\ project|output)' -->'$ ]]; then
    marker=${BASH_REMATCH[1]/:/}
  elif [[ -n $marker ]]; then
    fail "tutorial.md:$((lineno - 1)): a marker not followed by a code block"
  elif [[ $line == '<!-- tutorial'* ]]; then
    fail "tutorial.md:$lineno: an unknown marker: $line"
  fi
done < "$tutorial"
((in_block == 0)) || fail "tutorial.md: a code block is not closed"
((n > 0)) || fail "tutorial.md has no code blocks"

mask() { sed -E 's/[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?/#/g; s/loops [ijk]{3}/loops ###/' "$1"; }
files=() last_out='' outputs=0
for ((i = 1; i <= n; ++i)); do
  block=$tmp/blocks/$i where="tutorial.md:${lines[i]}"
  case ${kinds[i]} in
    file)
      target=$tmp/project/${args[i]}
      if [[ -e $target ]]; then echo >> "$target"; else files+=("${args[i]}"); fi
      cat "$block" >> "$target";;
    run)
      dir=$tmp/project
      [[ ${args[i]} == checkout ]] && dir=$tmp/checkout
      last_out=$block.out
      (cd "$dir" && HOME=$tmp/home bash -euo pipefail "$block") > "$last_out" 2> "$block.err" ||
        { cat "$block" "$last_out" "$block.err" >&2; fail "$where: these commands failed (in $dir)"; }
      echo "== $where: ran in ${args[i]}:"; sed 's/^/   /' "$block";;
    output)
      [[ -n $last_out ]] || fail "$where: an output block before any commands"
      diff <(mask "$block") <(mask "$last_out") > "$block.diff" ||
        { cat "$last_out" >&2; cat "$block.diff" >&2; fail "$where: the program prints otherwise (above; < tutorial, > printed)"; }
      outputs=$((outputs + 1));;
  esac
done
((outputs > 0)) || fail "tutorial.md shows no output"

# What the run printed: dfbb proved the optimum brute force finds, beam found one, the pick computes the product.
out=$last_out
cat "$out"
grep -qE '^dfbb: cost .* optimal 1,' "$out" || fail "dfbb did not prove its result optimal"
grep -qE '^beam[^ ]*: cost ' "$out" || fail "beam found nothing"
dfbb_cost=$(sed -nE 's/^dfbb: cost ([^ ]+) s.*/\1/p' "$out")
grep -qxF "brute force: cost $dfbb_cost s" "$out" || fail "dfbb's cost is not brute force's"
grep -qxF "the tiled matmul matches the reference" "$out" || fail "the tiled matmul's product is wrong"
[[ -f $tmp/home/opt/candor/lib/cmake/Candor/CandorConfig.cmake ]] || fail "the tutorial did not install candor to ~/opt/candor"

# The tutorial's project is the example.
mapfile -t expected < <(cd "$example" && find . -type f | sed 's|^\./||' | sort)
mapfile -t built < <(printf '%s\n' "${files[@]}" | sort)
[[ "${expected[*]}" == "${built[*]}" ]] ||
  fail "the tutorial writes ${built[*]}, examples/consumer_space holds ${expected[*]}"
for f in "${files[@]}"; do
  diff "$tmp/project/$f" "$example/$f" > "$tmp/$f.diff" ||
    { cat "$tmp/$f.diff" >&2; fail "the tutorial's $f is not examples/consumer_space/$f (< tutorial, > example)"; }
done
echo "tutorial: ${#files[@]} files assembled from $n blocks, built and run; they are examples/consumer_space"
