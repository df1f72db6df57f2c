// Histogram equalization of an 8-bit gray image: histogram, cumulative histogram (in the
// same Func: counting update, then a prefix-sum scan), an equalizing lookup table, and
// the table applied to every pixel.
//
// The histogram and its prefix sum are one Func on purpose: unscheduled, a Func with
// update definitions is recomputed at the innermost loop of each consumer, so a separate
// histogram read by a separate scan would be recomputed 256 times per output pixel.
#include "app_util.h"

namespace candor::apps::detail {

using namespace Halide;

namespace {

constexpr int kWidth = 128, kHeight = 128;

AppInstance build() {
  AppInstance inst;
  ImageParam input(UInt(8), 2, "input");
  // Use a low-contrast image (values squeezed into [64, 191]) so equalization matters.
  Buffer<uint8_t> image = natural_image_u8({kWidth, kHeight}, 808);
  image.for_each_value([](uint8_t& v) { v = static_cast<uint8_t>(64 + v / 2); });
  bind_input(input, image);
  inst.inputs = {input};

  Var x("x"), y("y"), i("i");
  Func clamped = repeat_edge_xy(input, "input_clamped");
  RDom r(0, input.dim(0).extent(), 0, input.dim(1).extent(), "r");
  RDom bin(1, 255, "bin");
  Func cdf("cumulative_histogram"), lut("equalize_lut"), output("hist_eq");
  cdf(i) = 0;
  cdf(cast<int>(clamped(r.x, r.y))) += 1;  // histogram
  cdf(bin) += cdf(bin - 1);                  // prefix sum
  // Map each level to its rank scaled to [0, 255]: cdf(i) * 255 / pixel_count (rounded).
  Expr count = input.dim(0).extent() * input.dim(1).extent();
  lut(i) = cast<uint8_t>((cdf(clamp(i, 0, 255)) * 255 + count / 2) / count);
  output(x, y) = lut(cast<int>(clamped(x, y)));

  set_output_estimates(output, {kWidth, kHeight});
  inst.outputs = {output};
  inst.output_sizes = {{kWidth, kHeight}};
  register_funcs(inst, {clamped, cdf, lut, output});

  inst.apply_expert_schedule = [=](const Target& target) mutable {
    if (target.has_gpu_feature()) return;  // CPU-only expert schedule
    const int v = lanes(target, UInt(8));
    Var yo("yo"), yi("yi");
    // The histogram and the 256-entry table are computed once (serially: counting is a
    // scatter and the image is small); applying the table is a parallel, vectorized gather.
    cdf.compute_root();
    lut.compute_root().bound(i, 0, 256).vectorize(i, lanes(target, Int(32)));
    output.split(y, yo, yi, 16).parallel(yo).vectorize(x, v);
  };
  return inst;
}

}  // namespace

App make_hist_eq_app() {
  return {"hist_eq", "histogram equalization of a low-contrast 128x128 8-bit image", build};
}

}  // namespace candor::apps::detail
