#!/bin/bash
# consumer_test.sh BUILD_DIR SOURCE_DIR
# Installs the build to a temporary prefix, then configures, builds and runs the two
# out-of-tree examples (examples/consumer_space, examples/consumer_halide), copied out of the
# source tree, against it alone: no include or library path of theirs may name the source or
# build tree. Checks what each example prints, that the installed plugin reads the machine
# description and the weights of its own prefix, and that installed candor_calibrate writes there.
set -euo pipefail
build=$(realpath "$1")
source=$(realpath "$2")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/candor_package.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
unset CANDOR_MACHINE CANDOR_MODEL CANDOR_SEARCH CANDOR_PINS CANDOR_VERIFY CANDOR_BUDGET CANDOR_VERBOSE

fail() { echo "FAIL: $*" >&2; exit 1; }
expect() {  # expect FILE TEXT: FILE holds TEXT
  grep -qF -- "$2" "$1" || { cat "$1" >&2; fail "$1 lacks '$2'"; }
}

cmake --install "$build" --prefix "$prefix" > "$tmp/install.log"
for f in bin/candor bin/dslc bin/candor_calibrate lib/libautoschedule_candor.so lib/libcandor_runtime.a \
         lib/libcandor_search.a lib/libcandor_support.a include/candor/space.h include/candor/engines.h \
         include/candor/support/memory.h share/candor/weights.json share/candor/spaces/halide_cpu.space \
         share/candor/machines/zen4_epyc.json lib/cmake/Candor/CandorConfig.cmake \
         lib/cmake/Candor/CandorConfigVersion.cmake lib/cmake/Candor/CandorSpace.cmake; do
  [[ -e $prefix/$f ]] || fail "the install lacks $f"
done
if [[ -x $build/bin/candor_collect ]]; then [[ -x $prefix/bin/candor_collect ]] || fail "the install lacks candor_collect"; fi
! grep -rlF -e "$source" -e "$build" "$prefix/lib/cmake" || fail "the installed CMake package names the source or build tree"

"$prefix/bin/candor_calibrate" --help > "$tmp/calibrate_help.txt"
expect "$tmp/calibrate_help.txt" "$prefix/share/candor/machine.json"

cp -r "$source/examples/consumer_space" "$source/examples/consumer_halide" "$tmp/"
configure() {  # configure NAME: $tmp/NAME into $tmp/build-NAME
  cmake -S "$tmp/$1" -B "$tmp/build-$1" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_EXPORT_COMPILE_COMMANDS=ON > "$tmp/$1.configure.log" || { cat "$tmp/$1.configure.log"; fail "configuring $1"; }
}
no_tree_paths() {  # no_tree_paths NAME: its compile and link commands use the install alone
  local commands=("$tmp/build-$1/compile_commands.json")
  mapfile -t -O 1 commands < <(find "$tmp/build-$1" -name link.txt)
  ! grep -F -e "$source" -e "$build" "${commands[@]}" || fail "$1 compiles or links with the source or build tree"
}

# A space of the user's own: dfbb proves the optimum that brute force finds, beam finds no
# cheaper one, and the tiled matmul it picked computes the right product.
configure consumer_space
cmake --build "$tmp/build-consumer_space" -j2 > "$tmp/space.build.log" || { cat "$tmp/space.build.log"; fail "building consumer_space"; }
no_tree_paths consumer_space
"$tmp/build-consumer_space/matmul_blocking" > "$tmp/space.out" || { cat "$tmp/space.out"; fail "matmul_blocking"; }
cat "$tmp/space.out"
expect "$tmp/space.out" "optimal 1"
expect "$tmp/space.out" "the tiled matmul matches the reference"

# A Halide generator scheduled by the installed plugin, which must read the machine
# description from its own prefix (a recorded one put there, so nothing calibrates).
cp "$prefix/share/candor/machines/zen4_epyc.json" "$prefix/share/candor/machine.json"
configure consumer_halide
CANDOR_BUDGET=time=10s CANDOR_SEED=1 cmake --build "$tmp/build-consumer_halide" -j2 > "$tmp/halide.build.log" 2>&1 ||
  { cat "$tmp/halide.build.log"; fail "building consumer_halide"; }
no_tree_paths consumer_halide
expect "$tmp/halide.build.log" "verified on synthetic inputs"
expect "$tmp/build-consumer_halide/blur.schedule.h" "machine description $prefix/share/candor/machine.json"
"$tmp/build-consumer_halide/run_blur" > "$tmp/halide.out" || { cat "$tmp/halide.out"; fail "run_blur"; }
cat "$tmp/halide.out"
expect "$tmp/halide.out" "matches the reference"

# The plugin's weights are its prefix's: spoilt there, the generator fails naming them.
echo '{}' > "$prefix/share/candor/weights.json"
if CANDOR_BUDGET=time=5s "$tmp/build-consumer_halide/blur_generator" -g blur -o "$tmp" -e h \
     -p "$prefix/lib/libautoschedule_candor.so" -s Candor target=host auto_schedule=true > "$tmp/spoilt.log" 2>&1; then
  fail "the generator ran with spoilt weights in $prefix/share/candor"
fi
expect "$tmp/spoilt.log" "$prefix/share/candor/weights.json"
echo "package: both consumers built and ran against $prefix"
