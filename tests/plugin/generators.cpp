// Compact generator versions of five example apps (examples/apps), for the plugin tests:
// each is compiled twice by the stock generator path, once scheduled by the Candor plugin and
// once without a schedule (the reference). Sizes are smaller than the apps' so the
// unscheduled reference runs quickly; the estimates equal the sizes the test runs at.
#include <cmath>

#include <Halide.h>

#include "plugin_sizes.h"

// Built a second time with CANDOR_PLUGIN_PRINTED: each generator then applies the schedule
// source the Candor plugin emitted (candor_APP.schedule.h) in its schedule() method.
#ifdef CANDOR_PLUGIN_PRINTED
#include "candor_box_blur.schedule.h"
#include "candor_conv_relu.schedule.h"
#include "candor_harris.schedule.h"
#include "candor_matmul.schedule.h"
#include "candor_unsharp_mask.schedule.h"
#define CANDOR_PRINTED_SCHEDULE(APP) \
  void schedule() { apply_schedule_candor_##APP(get_pipeline(), get_target()); }
#else
#define CANDOR_PRINTED_SCHEDULE(APP)
#endif

namespace {

using namespace Halide;
using namespace candor::plugin_test;

// Repeats the edge pixels of the first two (spatial) dimensions.
template <typename Input>
Func repeat_edge_xy(const Input& input, const std::string& name) {
  Region xy = {{input.dim(0).min(), input.dim(0).extent()}, {input.dim(1).min(), input.dim(1).extent()}};
  Func f = BoundaryConditions::repeat_edge(Func(input), xy);
  Func named(name);
  named(_) = f(_);
  return named;
}

// 3x3 box blur of a 16-bit image in two separable passes. `estimates=false` leaves the
// estimates out (the plugin must then fail with a clear message).
class BoxBlur : public Generator<BoxBlur> {
 public:
  GeneratorParam<bool> estimates{"estimates", true};
  Input<Buffer<uint16_t>> input{"input", 2};
  Output<Buffer<uint16_t>> output{"output", 2};

  CANDOR_PRINTED_SCHEDULE(box_blur)

  void generate() {
    Var x("x"), y("y");
    Func clamped = repeat_edge_xy(input, "input_clamped");
    Func blur_x("blur_x");
    blur_x(x, y) = cast<uint16_t>((cast<uint32_t>(clamped(x - 1, y)) + clamped(x, y) + clamped(x + 1, y)) / 3);
    output(x, y) = cast<uint16_t>((cast<uint32_t>(blur_x(x, y - 1)) + blur_x(x, y) + blur_x(x, y + 1)) / 3);
    if (estimates) {
      input.set_estimates({{0, kImageWidth}, {0, kImageHeight}});
      output.set_estimates({{0, kImageWidth}, {0, kImageHeight}});
    }
  }
};

// Unsharp mask of an RGB float image: 7-tap Gaussian on the luminance, a scalar strength.
class UnsharpMask : public Generator<UnsharpMask> {
 public:
  Input<Buffer<float>> input{"input", 3};
  Input<float> strength{"strength"};
  Output<Buffer<float>> output{"output", 3};

  CANDOR_PRINTED_SCHEDULE(unsharp_mask)

  void generate() {
    constexpr int kRadius = 3;
    constexpr float kSigma = 1.5f;
    float taps[2 * kRadius + 1], total = 0;
    for (int i = -kRadius; i <= kRadius; i++) total += taps[i + kRadius] = std::exp(-i * i / (2 * kSigma * kSigma));
    for (float& t : taps) t /= total;

    Var x("x"), y("y"), c("c");
    Func clamped = repeat_edge_xy(input, "input_clamped");
    Func gray("gray"), blur_y("blur_y"), blur_x("blur_x"), sharpen("sharpen"), ratio("ratio");
    gray(x, y) = 0.299f * clamped(x, y, 0) + 0.587f * clamped(x, y, 1) + 0.114f * clamped(x, y, 2);
    Expr sy = 0.0f, sx = 0.0f;
    for (int i = -kRadius; i <= kRadius; i++) sy += taps[i + kRadius] * gray(x, y + i);
    blur_y(x, y) = sy;
    for (int i = -kRadius; i <= kRadius; i++) sx += taps[i + kRadius] * blur_y(x + i, y);
    blur_x(x, y) = sx;
    sharpen(x, y) = gray(x, y) + strength * (gray(x, y) - blur_x(x, y));
    ratio(x, y) = sharpen(x, y) / max(gray(x, y), 1e-3f);
    output(x, y, c) = clamp(ratio(x, y) * clamped(x, y, c), 0.0f, 1.0f);

    input.set_estimates({{0, kImageWidth}, {0, kImageHeight}, {0, 3}});
    strength.set_estimate(1.5f);
    output.set_estimates({{0, kImageWidth}, {0, kImageHeight}, {0, 3}});
  }
};

// Harris corner response of an RGB float image.
class Harris : public Generator<Harris> {
 public:
  Input<Buffer<float>> input{"input", 3};
  Output<Buffer<float>> output{"output", 2};

  CANDOR_PRINTED_SCHEDULE(harris)

  void generate() {
    Var x("x"), y("y");
    Func clamped = repeat_edge_xy(input, "input_clamped");
    Func gray("gray"), ix("grad_x"), iy("grad_y"), ixx("grad_xx"), iyy("grad_yy"), ixy("grad_xy"), sxx("sum_xx"),
        syy("sum_yy"), sxy("sum_xy");
    gray(x, y) = 0.299f * clamped(x, y, 0) + 0.587f * clamped(x, y, 1) + 0.114f * clamped(x, y, 2);
    ix(x, y) = (gray(x + 1, y - 1) - gray(x - 1, y - 1) + 2.0f * (gray(x + 1, y) - gray(x - 1, y)) +
                gray(x + 1, y + 1) - gray(x - 1, y + 1)) / 12.0f;
    iy(x, y) = (gray(x - 1, y + 1) - gray(x - 1, y - 1) + 2.0f * (gray(x, y + 1) - gray(x, y - 1)) +
                gray(x + 1, y + 1) - gray(x + 1, y - 1)) / 12.0f;
    ixx(x, y) = ix(x, y) * ix(x, y);
    iyy(x, y) = iy(x, y) * iy(x, y);
    ixy(x, y) = ix(x, y) * iy(x, y);
    auto box3 = [&](Func f) {
      Expr s = 0.0f;
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) s += f(x + dx, y + dy);
      return s;
    };
    sxx(x, y) = box3(ixx);
    syy(x, y) = box3(iyy);
    sxy(x, y) = box3(ixy);
    Expr det = sxx(x, y) * syy(x, y) - sxy(x, y) * sxy(x, y);
    Expr trace = sxx(x, y) + syy(x, y);
    output(x, y) = det - 0.04f * trace * trace;

    input.set_estimates({{0, kImageWidth}, {0, kImageHeight}, {0, 3}});
    output.set_estimates({{0, kImageWidth}, {0, kImageHeight}});
  }
};

// Single-precision matrix multiply, kMatrixSize cubed.
class Matmul : public Generator<Matmul> {
 public:
  Input<Buffer<float>> a{"a", 2};
  Input<Buffer<float>> b{"b", 2};
  Output<Buffer<float>> output{"output", 2};

  CANDOR_PRINTED_SCHEDULE(matmul)

  void generate() {
    Var x("x"), y("y");
    RDom k(0, kMatrixSize, "k");
    Func dot("dot");
    dot(x, y) = 0.0f;
    dot(x, y) += a(k, y) * b(x, k);
    output(x, y) = dot(x, y);

    a.set_estimates({{0, kMatrixSize}, {0, kMatrixSize}});
    b.set_estimates({{0, kMatrixSize}, {0, kMatrixSize}});
    output.set_estimates({{0, kMatrixSize}, {0, kMatrixSize}});
  }
};

// 3x3 convolution layer (channels innermost) with bias and ReLU, zero padding.
class ConvRelu : public Generator<ConvRelu> {
 public:
  Input<Buffer<float>> input{"input", 4};    // (ci, x, y, n)
  Input<Buffer<float>> weights{"weights", 4};  // (co, kx, ky, ci)
  Input<Buffer<float>> bias{"bias", 1};      // (co)
  Output<Buffer<float>> output{"output", 4};   // (co, x, y, n)

  CANDOR_PRINTED_SCHEDULE(conv_relu)

  void generate() {
    Var c("c"), x("x"), y("y"), n("n");
    Func padded("input_padded");
    padded(c, x, y, n) = BoundaryConditions::constant_exterior(
        input, 0.0f, {{Expr(), Expr()}, {0, kConvWidth}, {0, kConvHeight}, {Expr(), Expr()}})(c, x, y, n);
    RDom r(0, 3, 0, 3, 0, kConvChannelsIn, "r");
    Func conv("conv");
    conv(c, x, y, n) = bias(c);
    conv(c, x, y, n) += weights(c, r.x, r.y, r.z) * padded(r.z, x + r.x - 1, y + r.y - 1, n);
    output(c, x, y, n) = max(conv(c, x, y, n), 0.0f);

    input.set_estimates({{0, kConvChannelsIn}, {0, kConvWidth}, {0, kConvHeight}, {0, kConvBatch}});
    weights.set_estimates({{0, kConvChannelsOut}, {0, 3}, {0, 3}, {0, kConvChannelsIn}});
    bias.set_estimates({{0, kConvChannelsOut}});
    output.set_estimates({{0, kConvChannelsOut}, {0, kConvWidth}, {0, kConvHeight}, {0, kConvBatch}});
  }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(BoxBlur, box_blur)
HALIDE_REGISTER_GENERATOR(UnsharpMask, unsharp_mask)
HALIDE_REGISTER_GENERATOR(Harris, harris)
HALIDE_REGISTER_GENERATOR(Matmul, matmul)
HALIDE_REGISTER_GENERATOR(ConvRelu, conv_relu)
