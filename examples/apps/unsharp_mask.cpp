// Unsharp mask on an RGB float image: luminance, separable 7-tap Gaussian blur of the
// luminance, sharpened luminance, and the sharpening applied to every channel as a ratio.
#include <cmath>

#include "app_util.h"

namespace candor::apps::detail {

using namespace Halide;

namespace {

constexpr int kWidth = 1536, kHeight = 1024;
constexpr int kRadius = 3;
constexpr float kSigma = 1.5f;

AppInstance build() {
  AppInstance inst;
  ImageParam input(Float(32), 3, "input");
  bind_input(input, natural_image({kWidth, kHeight, 3}, 202));
  inst.inputs = {input};
  Param<float> strength("strength", 1.5f);
  strength.set_estimate(1.5f);
  inst.scalar_params = {strength.parameter()};

  // Normalized Gaussian taps, computed here so the pipeline sees constants.
  float taps[2 * kRadius + 1], total = 0;
  for (int i = -kRadius; i <= kRadius; i++) total += taps[i + kRadius] = std::exp(-i * i / (2 * kSigma * kSigma));
  for (float& t : taps) t /= total;

  Var x("x"), y("y"), c("c");
  Func clamped = repeat_edge_xy(input, "input_clamped");
  Func gray("gray"), blur_y("blur_y"), blur_x("blur_x"), sharpen("sharpen"), ratio("ratio"),
      output("unsharp_mask");
  gray(x, y) = 0.299f * clamped(x, y, 0) + 0.587f * clamped(x, y, 1) + 0.114f * clamped(x, y, 2);
  Expr sy = 0.0f, sx = 0.0f;
  for (int i = -kRadius; i <= kRadius; i++) sy += taps[i + kRadius] * gray(x, y + i);
  blur_y(x, y) = sy;
  for (int i = -kRadius; i <= kRadius; i++) sx += taps[i + kRadius] * blur_y(x + i, y);
  blur_x(x, y) = sx;
  sharpen(x, y) = gray(x, y) + strength * (gray(x, y) - blur_x(x, y));
  ratio(x, y) = sharpen(x, y) / max(gray(x, y), 1e-3f);
  output(x, y, c) = clamp(ratio(x, y) * clamped(x, y, c), 0.0f, 1.0f);

  set_output_estimates(output, {kWidth, kHeight, 3});
  inst.outputs = {output};
  inst.output_sizes = {{kWidth, kHeight, 3}};
  register_funcs(inst, {clamped, gray, blur_y, blur_x, sharpen, ratio, output});

  inst.apply_expert_schedule = [=](const Target& target) mutable {
    if (target.has_gpu_feature()) return;  // CPU-only expert schedule
    const int v = lanes(target, Float(32));
    Var yo("yo"), yi("yi");
    // Row strips in parallel. Inside a strip, gray and the vertical blur are produced for
    // the whole strip (plus the 3-row halo) so each is computed once per pixel; the
    // horizontal blur and sharpening are cheap enough to inline into the per-row ratio,
    // which is computed once and reused by the three channels.
    output.split(y, yo, yi, 32).parallel(yo).vectorize(x, v).reorder(x, c, yi, yo);
    gray.compute_at(output, yo).vectorize(x, v);
    blur_y.compute_at(output, yo).vectorize(x, v);
    ratio.compute_at(output, yi).vectorize(x, v);
  };
  return inst;
}

}  // namespace

App make_unsharp_mask_app() {
  return {"unsharp_mask", "unsharp mask of a 1536x1024 RGB image (7-tap Gaussian on luminance)", build};
}

}  // namespace candor::apps::detail
