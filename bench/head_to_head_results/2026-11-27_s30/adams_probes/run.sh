#!/bin/bash
# What makes Adams2019's lens_blur and depthwise_separable_conv faster than candor's tuned
# picks (stop 29: 1.16x and 1.02x)? Each file's first line is the s29 tuned pick; the other
# lines are variants, all timed side by side (`candor measure --interleave`) in fresh
# processes; ratios are to the first line. Run from the repo root after a build.
#
#   lens_blur_adams_as_json.jsonl   tuned; Adams2019's schedule written as candor JSON (no
#                                   fuse, no Stack, no unroll of the update's x); + Stack
#                                   memory; + Stack and the update's x split by 128 and unrolled
#   lens_blur_parallel_tasks.jsonl  tuned with 64-row parallel strips (4 tasks); 32, 16, 8 rows
#   depthwise_adams_as_json.jsonl   tuned; Adams2019's schedule as JSON (depthwise_relu computed
#                                   inside pointwise's input-channel loop); + Stack; with
#                                   depthwise_relu at pointwise_relu's tile instead
#   depthwise_stack_per_func.jsonl  tuned; each line one more Func in MemoryType::Stack
#                                   (pointwise, depthwise_relu, depthwise, input_padded)
#
# fuse_probe.cpp (the bridge has no fuse directive) times a schedule against the same one with
# two loops of one stage fused into one parallel loop, the Funcs computed or stored at either
# moved to the fused loop; fuse_APP.jsonl are the s29 tuned picks, fuse_lens_blur_adams.jsonl
# the last line of lens_blur_adams_as_json.jsonl.
set -euo pipefail
here=$(dirname "$0")
measure() {  # APP FILE: one process, the ratio of every line to the first
  build/bin/candor measure "$1" --schedules "$2" --interleave --min-seconds 3 --json 2>/dev/null |
    python3 -c "import sys, json; print('$(basename "$2")', [round(json.loads(l).get('ratio_to_first', 0), 3) for l in sys.stdin])"
}
for p in 1 2; do
  measure lens_blur "$here/lens_blur_adams_as_json.jsonl"
  measure lens_blur "$here/lens_blur_parallel_tasks.jsonl"
  measure depthwise_separable_conv "$here/depthwise_adams_as_json.jsonl"
  measure depthwise_separable_conv "$here/depthwise_stack_per_func.jsonl"
done

probe=$(mktemp -d)/fuse_probe
g++ -std=c++17 -O1 -I/usr/include/halide14 -I. -Iexamples/apps -Ihalide_bridge "$here/fuse_probe.cpp" -o "$probe" \
  build/examples/apps/libcandor_apps.a build/halide_bridge/libcandor_halide_bridge.a -lHalide14 -lfmt -lpthread -ldl
fuse() {  # APP FILE FUNC INNER OUTER
  for p in 1 2; do echo "$2 fused $4,$5: $("$probe" "$1" "$here/$2" "$3" "$4" "$5" | awk 'NR == 2 {print $2}')"; done
}
fuse lens_blur fuse_lens_blur_tuned.jsonl lens_blur x_o y_o
fuse lens_blur fuse_lens_blur_adams.jsonl lens_blur x_o y_o
fuse depthwise_separable_conv fuse_depthwise_separable_conv.jsonl pointwise_relu c_o x_o
fuse conv_relu fuse_conv_relu.jsonl input_padded d2_o d3_o
fuse camera_pipe fuse_camera_pipe.jsonl camera_pipe c y_o
fuse box_blur fuse_box_blur.jsonl blur_x y_i_o y_o
fuse harris fuse_harris.jsonl harris x_o y_o
fuse unsharp_mask fuse_unsharp_mask.jsonl unsharp_mask y_i_o y_o
fuse max_filter fuse_max_filter.jsonl max_filter x_o y_o
