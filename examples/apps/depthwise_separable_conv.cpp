// A depthwise-separable convolution block (MobileNet): 3x3 depthwise convolution per
// channel + bias + ReLU, then a 1x1 pointwise convolution across channels + bias + ReLU.
#include "app_util.h"

namespace candor::apps::detail {

using namespace Halide;

namespace {

constexpr int kChannelsIn = 32, kChannelsOut = 64, kWidth = 64, kHeight = 64;

AppInstance build() {
  AppInstance inst;
  ImageParam input(Float(32), 3, "input");                  // (c, x, y)
  ImageParam dw_weights(Float(32), 3, "depthwise_weights");  // (c, kx, ky)
  ImageParam dw_bias(Float(32), 1, "depthwise_bias");        // (c)
  ImageParam pw_weights(Float(32), 2, "pointwise_weights");  // (c_out, c_in)
  ImageParam pw_bias(Float(32), 1, "pointwise_bias");        // (c_out)
  bind_input(input, uniform_buffer({kChannelsIn, kWidth, kHeight}, 606, 0.0f, 1.0f));
  bind_input(dw_weights, uniform_buffer({kChannelsIn, 3, 3}, 607, -0.5f, 0.5f));
  bind_input(dw_bias, uniform_buffer({kChannelsIn}, 608, -0.1f, 0.1f));
  bind_input(pw_weights, uniform_buffer({kChannelsOut, kChannelsIn}, 609, -0.3f, 0.3f));
  bind_input(pw_bias, uniform_buffer({kChannelsOut}, 610, -0.1f, 0.1f));
  inst.inputs = {input, dw_weights, dw_bias, pw_weights, pw_bias};

  Var c("c"), x("x"), y("y");
  Func padded = zero_pad(input, 1, 2, "input_padded");
  RDom k(0, 3, 0, 3, "k");
  RDom ci(0, kChannelsIn, "ci");
  Func depthwise("depthwise"), depthwise_relu("depthwise_relu"), pointwise("pointwise"),
      output("pointwise_relu");
  depthwise(c, x, y) = dw_bias(c);
  depthwise(c, x, y) += dw_weights(c, k.x, k.y) * padded(c, x + k.x - 1, y + k.y - 1);
  depthwise_relu(c, x, y) = max(depthwise(c, x, y), 0.0f);
  pointwise(c, x, y) = pw_bias(c);
  pointwise(c, x, y) += pw_weights(c, ci) * depthwise_relu(ci, x, y);
  output(c, x, y) = max(pointwise(c, x, y), 0.0f);

  const std::vector<int> out_size = {kChannelsOut, kWidth, kHeight};
  set_output_estimates(output, out_size);
  inst.outputs = {output};
  inst.output_sizes = {out_size};
  register_funcs(inst, {padded, depthwise, depthwise_relu, pointwise, output});

  inst.apply_expert_schedule = [=](const Target& target) mutable {
    if (target.has_gpu_feature()) return;  // CPU-only expert schedule
    const int v = lanes(target, Float(32));
    Var co("co"), cv("cv"), xo("xo"), xi("xi");
    // Pointwise: register tile of 2 vectors of output channels x 4 pixels, reduction over
    // input channels inside. Depthwise: computed per row of output (all input channels,
    // vectorized over channels), so it is computed once and read from L1 by the pointwise.
    output.split(c, co, cv, 2 * v)
        .split(x, xo, xi, 4)
        .reorder(cv, xi, co, xo, y)
        .vectorize(cv, v)
        .unroll(cv)
        .unroll(xi)
        .parallel(y);
    pointwise.compute_at(output, co).vectorize(c, v).unroll(c).unroll(x);
    pointwise.update().reorder(c, x, ci).vectorize(c, v).unroll(c).unroll(x);
    depthwise.compute_at(output, y).vectorize(c, v);
    depthwise.update().reorder(c, x, k.x, k.y).vectorize(c, v);
  };
  return inst;
}

}  // namespace

App make_depthwise_separable_conv_app() {
  return {"depthwise_separable_conv",
          "depthwise 3x3 (32 channels) + pointwise 1x1 (32->64) conv block with ReLUs, 64x64",
          build};
}

}  // namespace candor::apps::detail
