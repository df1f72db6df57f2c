// Lens blur (synthetic depth of field) from an RGB image and its depth map: each pixel's
// circle of confusion grows with its distance from the focal plane; the output gathers
// the samples of a disc around each pixel, keeping a sample only if its own circle of
// confusion reaches the pixel (scatter-as-gather, so sharp foreground does not bleed),
// and weights bright samples up so highlights bloom into bokeh discs.
#include "app_util.h"

namespace candor::apps::detail {

using namespace Halide;

namespace {

constexpr int kWidth = 256, kHeight = 256;
constexpr int kMaxRadius = 4;  // largest circle of confusion, in pixels

AppInstance build() {
  AppInstance inst;
  ImageParam input(Float(32), 3, "input"), depth(Float(32), 2, "depth");
  bind_input(input, natural_image({kWidth, kHeight, 3}, 1414));
  {
    // Depth in [1, 3]: smooth, with a near object in the middle.
    Buffer<float> d = natural_image({kWidth, kHeight}, 1415);
    d.for_each_element([&](int x, int y) {
      const float dx = x - kWidth / 2.0f, dy = y - kHeight / 2.0f;
      const bool near = dx * dx + dy * dy < (kWidth / 5.0f) * (kWidth / 5.0f);
      d(x, y) = near ? 1.0f + 0.2f * d(x, y) : 2.0f + d(x, y);
    });
    bind_input(depth, d);
  }
  inst.inputs = {input, depth};
  Param<float> focus("focus_depth", 1.1f), aperture("aperture", 3.0f);
  focus.set_estimate(1.1f);
  aperture.set_estimate(3.0f);
  inst.scalar_params = {focus.parameter(), aperture.parameter()};

  Var x("x"), y("y"), c("c");
  Func clamped = repeat_edge_xy(input, "input_clamped");
  Func depth_clamped = repeat_edge_xy(depth, "depth_clamped");
  Func coc("circle_of_confusion"), gain("highlight_gain"), sum("bokeh_sum"), output("lens_blur");
  // Thin-lens circle of confusion (in pixels), proportional to |1/focus - 1/depth|.
  coc(x, y) = min(aperture * focus * abs(1.0f / focus - 1.0f / depth_clamped(x, y)) * kMaxRadius,
                  float(kMaxRadius));
  {
    Expr luma = 0.299f * clamped(x, y, 0) + 0.587f * clamped(x, y, 1) + 0.114f * clamped(x, y, 2);
    gain(x, y) = 1.0f + 8.0f * max(luma - 0.7f, 0.0f);
  }
  RDom r(-kMaxRadius, 2 * kMaxRadius + 1, -kMaxRadius, 2 * kMaxRadius + 1, "r");
  r.where(r.x * r.x + r.y * r.y <= kMaxRadius * kMaxRadius);
  {
    Expr sx = x + r.x, sy = y + r.y;
    Expr dist = sqrt(cast<float>(r.x * r.x + r.y * r.y));
    // A sample reaches this pixel if its circle covers the distance (soft by 1 pixel);
    // the pixel itself always counts.
    Expr coverage = clamp(coc(sx, sy) + 1.0f - dist, 0.0f, 1.0f);
    Expr w = coverage * gain(sx, sy) / (1.0f + coc(sx, sy) * coc(sx, sy));
    sum(x, y, c) = 0.0f;
    sum(x, y, c) += w * select(c < 3, clamped(sx, sy, min(c, 2)), 1.0f);
  }
  output(x, y, c) = sum(x, y, c) / sum(x, y, 3);

  const std::vector<int> out_size = {kWidth, kHeight, 3};
  set_output_estimates(output, out_size);
  inst.outputs = {output};
  inst.output_sizes = {out_size};
  register_funcs(inst, {clamped, depth_clamped, coc, gain, sum, output});

  inst.apply_expert_schedule = [=](const Target& target) mutable {
    if (target.has_gpu_feature()) return;  // CPU-only expert schedule
    const int v = lanes(target, Float(32));
    Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
    // Circle of confusion and highlight gain are per-pixel maps read 49 times each:
    // computed per 64x32 tile (plus the 4-pixel halo). The four sums (3 channels and the
    // weight) are accumulated together, unrolled over c, from one weight per sample.
    output.tile(x, y, xo, yo, xi, yi, 64, 32).reorder(xi, c, yi, xo, yo).bound(c, 0, 3)
        .vectorize(xi, v).parallel(yo);
    coc.compute_at(output, xo).vectorize(x, v);
    gain.compute_at(output, xo).vectorize(x, v);
    sum.compute_at(output, xo).bound(c, 0, 4).reorder(c, x, y).unroll(c).vectorize(x, v);
    sum.update().reorder(c, x, r.x, r.y, y).unroll(c).vectorize(x, v);
  };
  return inst;
}

}  // namespace

App make_lens_blur_app() {
  return {"lens_blur", "depth-of-field lens blur (gathered bokeh, radius 4) of a 256x256 RGB image",
          build};
}

}  // namespace candor::apps::detail
