// A convolutional layer followed by ReLU: 3x3 "same" convolution (zero padding) of a
// 32-channel batch of images with 32 filters, plus bias.
#include "app_util.h"

namespace candor::apps::detail {

using namespace Halide;

namespace {

constexpr int kChannelsIn = 32, kChannelsOut = 32, kWidth = 64, kHeight = 64, kBatch = 4;

AppInstance build() {
  AppInstance inst;
  // Channel-innermost layouts (NHWC in Halide's order): input(c, x, y, n),
  // weights(c_out, kx, ky, c_in) so that a vector of output channels reads contiguous weights.
  ImageParam input(Float(32), 4, "input"), weights(Float(32), 4, "weights"),
      bias(Float(32), 1, "bias");
  bind_input(input, uniform_buffer({kChannelsIn, kWidth, kHeight, kBatch}, 505, 0.0f, 1.0f));
  bind_input(weights, uniform_buffer({kChannelsOut, 3, 3, kChannelsIn}, 506, -0.2f, 0.2f));
  bind_input(bias, uniform_buffer({kChannelsOut}, 507, -0.5f, 0.5f));
  inst.inputs = {input, weights, bias};

  Var c("c"), x("x"), y("y"), n("n");
  Func padded = zero_pad(input, 1, 2, "input_padded");
  RDom r(0, 3, 0, 3, 0, kChannelsIn, "r");
  Func conv("conv"), relu("relu");
  conv(c, x, y, n) = bias(c);
  conv(c, x, y, n) += weights(c, r.x, r.y, r.z) * padded(r.z, x + r.x - 1, y + r.y - 1, n);
  relu(c, x, y, n) = max(conv(c, x, y, n), 0.0f);

  const std::vector<int> out_size = {kChannelsOut, kWidth, kHeight, kBatch};
  set_output_estimates(relu, out_size);
  inst.outputs = {relu};
  inst.output_sizes = {out_size};
  register_funcs(inst, {padded, conv, relu});

  inst.apply_expert_schedule = [=](const Target& target) mutable {
    if (target.has_gpu_feature()) return;  // CPU-only expert schedule
    const int v = lanes(target, Float(32));
    Var co("co"), ci("ci"), xo("xo"), xi("xi"), yn("yn");
    // Register tile of 2 vectors of output channels x 4 pixels (8 accumulators); the
    // reduction loops run outside it so each weight vector is loaded once per 4 pixels and
    // each input value is broadcast once per 2 vectors. Rows of all images in parallel.
    relu.split(c, co, ci, 2 * v)
        .split(x, xo, xi, 4)
        .reorder(ci, xi, co, xo, y, n)
        .vectorize(ci, v)
        .unroll(ci)
        .unroll(xi)
        .fuse(y, n, yn)
        .parallel(yn);
    conv.compute_at(relu, co).vectorize(c, v).unroll(c).unroll(x);
    conv.update().reorder(c, x, r.z, r.x, r.y).vectorize(c, v).unroll(c).unroll(x);
    // Zero padding is cheap to recompute (a select on a load); inlining it keeps the
    // input access direct.
  };
  return inst;
}

}  // namespace

App make_conv_relu_app() {
  return {"conv_relu", "3x3 conv layer (32->32 channels, 64x64, batch 4) + bias + ReLU", build};
}

}  // namespace candor::apps::detail
