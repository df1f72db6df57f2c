// Non-local means denoising (Buades et al. 2005): each pixel becomes a weighted average of
// the pixels in a 7x7 search window, weighted by exp(-patch distance / h^2), where the
// patch distance is the squared RGB difference summed over a 5x5 patch (a box filter of
// the per-offset difference image).
#include "app_util.h"

namespace candor::apps::detail {

using namespace Halide;

namespace {

constexpr int kWidth = 96, kHeight = 96;
constexpr int kPatchRadius = 2, kSearchRadius = 3;

AppInstance build() {
  AppInstance inst;
  ImageParam input(Float(32), 3, "input");
  {
    // A natural image plus noise, so there is something to denoise.
    Buffer<float> image = natural_image({kWidth, kHeight, 3}, 1313);
    Rng rng(1314);
    image.for_each_value([&](float& v) { v += 0.1f * (rng.next_unit() - 0.5f); });
    bind_input(input, image);
  }
  inst.inputs = {input};
  Param<float> sigma("sigma", 0.12f);  // filtering strength h
  sigma.set_estimate(0.12f);
  inst.scalar_params = {sigma.parameter()};

  Var x("x"), y("y"), c("c"), dx("dx"), dy("dy");
  Func clamped = repeat_edge_xy(input, "input_clamped");
  Func diff("patch_diff"), blur_y("patch_blur_y"), dist("patch_dist"), weight("weight"),
      sum("weighted_sum"), output("non_local_means");
  // Squared colour difference between pixel (x, y) and pixel (x + dx, y + dy).
  {
    Expr e = 0.0f;
    for (int k = 0; k < 3; k++) {
      Expr d = clamped(x, y, k) - clamped(x + dx, y + dy, k);
      e += d * d;
    }
    diff(x, y, dx, dy) = e;
  }
  // Sum over the patch: separable box filter of the difference image for each offset.
  {
    Expr sy = 0.0f, sx = 0.0f;
    for (int i = -kPatchRadius; i <= kPatchRadius; i++) sy += diff(x, y + i, dx, dy);
    blur_y(x, y, dx, dy) = sy;
    for (int i = -kPatchRadius; i <= kPatchRadius; i++) sx += blur_y(x + i, y, dx, dy);
    dist(x, y, dx, dy) = sx;
  }
  const float patch_size = float((2 * kPatchRadius + 1) * (2 * kPatchRadius + 1));
  weight(x, y, dx, dy) = exp(-dist(x, y, dx, dy) / (patch_size * sigma * sigma));
  // Weighted sums of the three channels (c < 3) and of the weights (c == 3).
  RDom s(-kSearchRadius, 2 * kSearchRadius + 1, -kSearchRadius, 2 * kSearchRadius + 1, "s");
  sum(x, y, c) = 0.0f;
  sum(x, y, c) += weight(x, y, s.x, s.y) * select(c < 3, clamped(x + s.x, y + s.y, min(c, 2)), 1.0f);
  output(x, y, c) = sum(x, y, c) / sum(x, y, 3);

  const std::vector<int> out_size = {kWidth, kHeight, 3};
  set_output_estimates(output, out_size);
  inst.outputs = {output};
  inst.output_sizes = {out_size};
  register_funcs(inst, {clamped, diff, blur_y, dist, weight, sum, output});

  inst.apply_expert_schedule = [=](const Target& target) mutable {
    if (target.has_gpu_feature()) return;  // CPU-only expert schedule
    const int v = lanes(target, Float(32));
    Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
    // 32x32 output tiles in parallel. For each tile, the sums accumulate over the 49
    // offsets; for each offset, the difference image and its vertical box pass are
    // computed for the tile plus halo just before use (a few KB, in L1), the horizontal
    // pass and the weight inlined into the accumulation, which updates all four sums
    // (unrolled over c) from one weight.
    output.tile(x, y, xo, yo, xi, yi, 32, 32).reorder(xi, c, yi, xo, yo).bound(c, 0, 3)
        .vectorize(xi, v).parallel(yo);
    sum.compute_at(output, xo).bound(c, 0, 4).reorder(c, x, y).unroll(c).vectorize(x, v);
    sum.update().reorder(c, x, y, s.x, s.y).unroll(c).vectorize(x, v);
    blur_y.compute_at(sum, s.x).vectorize(x, v);
    diff.compute_at(sum, s.x).vectorize(x, v);
  };
  return inst;
}

}  // namespace

App make_non_local_means_app() {
  return {"non_local_means", "non-local means denoising (5x5 patches, 7x7 search) of a 96x96 RGB image", build};
}

}  // namespace candor::apps::detail
