// A pointwise (1x1) convolution, 64 -> 128 channels on 112x112 in (c, x, y, n) layout,
// with bias and ReLU, followed by 2x2 max pooling with stride 2.
#include "corpus_generator.h"

namespace {

using namespace Halide;

class Conv1x1MaxPool : public Generator<Conv1x1MaxPool> {
 public:
  Input<Buffer<float>> input{"input", 4};      // (ci, x, y, n)
  Input<Buffer<float>> weights{"weights", 2};  // (co, ci)
  Input<Buffer<float>> bias{"bias", 1};        // (co)
  Output<Buffer<float>> output{"output", 4};   // (co, x / 2, y / 2, n)

  void generate() {
    const int width = 112, height = 112, batch = 1;

    r = RDom(0, in_channels);
    conv(c, x, y, n) = bias(c);
    conv(c, x, y, n) += weights(c, r) * input(r, x, y, n);
    relu(c, x, y, n) = max(0.0f, conv(c, x, y, n) * (1.0f / in_channels) - 0.25f);

    output(c, x, y, n) = max(max(relu(c, 2 * x, 2 * y, n), relu(c, 2 * x + 1, 2 * y, n)),
                             max(relu(c, 2 * x, 2 * y + 1, n), relu(c, 2 * x + 1, 2 * y + 1, n)));

    input.set_estimates({{0, in_channels}, {0, width}, {0, height}, {0, batch}});
    weights.set_estimates({{0, out_channels}, {0, in_channels}});
    bias.set_estimates({{0, out_channels}});
    output.set_estimates({{0, out_channels}, {0, width / 2}, {0, height / 2}, {0, batch}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int v = natural_vector_size<float>();
    // Each pooled register tile (2 vectors of channels by 2 pooled pixels) computes its
    // 2x4-pixel block of the convolution in registers and pools it at once; pooled rows are
    // spread over the cores.
    output.split(c, co, ci, 2 * v)
        .split(x, xo, xi, 2)
        .reorder(ci, xi, xo, co, y, n)
        .vectorize(ci, v)
        .unroll(ci)
        .unroll(xi)
        .fuse(y, n, yn)
        .parallel(yn);
    conv.compute_at(output, xo).vectorize(c, v).unroll(c).unroll(x).unroll(y);
    conv.update().reorder(c, x, y, r).vectorize(c, v).unroll(c).unroll(x).unroll(y);
  }

 private:
  static constexpr int in_channels = 64, out_channels = 128;
  Var c{"c"}, x{"x"}, y{"y"}, n{"n"}, co{"co"}, ci{"ci"}, xo{"xo"}, xi{"xi"}, yn{"yn"};
  Func conv{"conv"}, relu{"relu"};
  RDom r;
};

}  // namespace

CANDOR_CORPUS_GENERATOR(Conv1x1MaxPool, conv1x1_maxpool, "1x1 conv 64->128 on 112x112 with bias and ReLU, then 2x2 stride-2 max pool, float (c, x, y, n)")
