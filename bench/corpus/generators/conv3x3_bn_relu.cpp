// A ResNet-style 3x3 convolution layer, 64 -> 64 channels on 56x56 in (c, x, y, n)
// layout, zero padded, followed by inference-time batch norm (a per-channel scale and
// shift) and ReLU.
#include "corpus_generator.h"

namespace {

using namespace Halide;

class Conv3x3BnRelu : public Generator<Conv3x3BnRelu> {
 public:
  Input<Buffer<float>> input{"input", 4};    // (ci, x, y, n)
  Input<Buffer<float>> weights{"weights", 4};  // (co, ci, kx, ky)
  Input<Buffer<float>> bias{"bias", 1};      // (co)
  Input<Buffer<float>> bn_scale{"bn_scale", 1};
  Input<Buffer<float>> bn_shift{"bn_shift", 1};
  Output<Buffer<float>> output{"output", 4};  // (co, x, y, n)

  void generate() {
    const int width = 56, height = 56, batch = 2;
    const int fan_in = in_channels * 9;

    padded = BoundaryConditions::constant_exterior(
        input, 0.0f, {{Expr(), Expr()}, {0, input.dim(1).extent()}, {0, input.dim(2).extent()}, {Expr(), Expr()}});

    r = RDom(0, in_channels, 0, 3, 0, 3);
    conv(c, x, y, n) = bias(c);
    conv(c, x, y, n) += weights(c, r.x, r.y, r.z) * padded(r.x, x + r.y - 1, y + r.z - 1, n);

    // The synthetic weights are all positive: normalize by the fan-in so that the
    // activations stay around 1, and centre them so that the ReLU has work to do.
    Expr normalized = conv(c, x, y, n) * (1.0f / fan_in) - 0.25f;
    output(c, x, y, n) = max(0.0f, normalized * bn_scale(c) + (bn_shift(c) - 0.25f));

    input.set_estimates({{0, in_channels}, {0, width}, {0, height}, {0, batch}});
    weights.set_estimates({{0, out_channels}, {0, in_channels}, {0, 3}, {0, 3}});
    bias.set_estimates({{0, out_channels}});
    bn_scale.set_estimates({{0, out_channels}});
    bn_shift.set_estimates({{0, out_channels}});
    output.set_estimates({{0, out_channels}, {0, width}, {0, height}, {0, batch}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int v = natural_vector_size<float>();
    const int tile_c = 2 * v, tile_x = 7;
    // Register tiles of 2 vectors of output channels by 7 pixels accumulate over the whole
    // 3x3xCI window; rows of the output are spread over the cores, and the padded input is
    // materialized once so that the inner loop carries no boundary select.
    output.split(c, co, ci, tile_c)
        .split(x, xo, xi, tile_x)
        .reorder(ci, xi, xo, co, y, n)
        .vectorize(ci, v)
        .unroll(ci)
        .unroll(xi)
        .fuse(y, n, yn)
        .parallel(yn);
    conv.compute_at(output, xo).vectorize(c, v).unroll(c).unroll(x);
    conv.update()
        .reorder(c, x, r.x, r.y, r.z)
        .vectorize(c, v)
        .unroll(c)
        .unroll(x);
    const std::vector<Var> p = padded.args();
    padded.compute_root().vectorize(p[0], v).fuse(p[2], p[3], yn).parallel(yn);
  }

 private:
  static constexpr int in_channels = 64, out_channels = 64;
  Var c{"c"}, x{"x"}, y{"y"}, n{"n"}, co{"co"}, ci{"ci"}, xo{"xo"}, xi{"xi"}, yn{"yn"};
  Func padded{"padded"}, conv{"conv"};
  RDom r;
};

}  // namespace

CANDOR_CORPUS_GENERATOR(Conv3x3BnRelu, conv3x3_bn_relu, "3x3 conv 64->64 on 56x56x2, zero padded, batch-norm scale/shift and ReLU, float (c, x, y, n)")
