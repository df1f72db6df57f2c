// A dense layer as one single-precision GEMM: C = relu(A B + bias) for 1024x1024 row-major
// matrices, the bias broadcast along the rows.
#include "corpus_generator.h"

namespace {

using namespace Halide;

class GemmBiasRelu : public Generator<GemmBiasRelu> {
 public:
  Input<Buffer<float>> a{"a", 2};        // (k, row)
  Input<Buffer<float>> b{"b", 2};        // (column, k)
  Input<Buffer<float>> bias{"bias", 1};  // (column)
  Output<Buffer<float>> output{"output", 2};  // (column, row)

  void generate() {
    r = RDom(0, size_k);
    prod(x, y) = 0.0f;
    prod(x, y) += a(r, y) * b(x, r);
    // The synthetic operands are all positive: the product is rescaled by the depth and
    // centred so that the ReLU clips about half of the outputs.
    output(x, y) = max(prod(x, y) * (4.0f / size_k) - 1.0f + bias(x), 0.0f);

    a.set_estimates({{0, size_k}, {0, size_m}});
    b.set_estimates({{0, size_n}, {0, size_k}});
    bias.set_estimates({{0, size_n}});
    output.set_estimates({{0, size_n}, {0, size_m}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int v = natural_vector_size<float>();
    const int tile_x = 2 * v, tile_y = 8;
    // Register tiles of 2 vectors by 8 rows accumulate over the whole depth; within each
    // 256x64 block the column panels are outermost, so a panel of B stays in L2 while every
    // row tile of the block passes over it, and the blocks are spread over the cores.
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, xr{"xr"}, yr{"yr"}, xy{"xy"};
    output.tile(x, y, xo, yo, xi, yi, 256, 64)
        .tile(xi, yi, xt, yt, xr, yr, tile_x, tile_y)
        .reorder(xr, yr, yt, xt, xo, yo)
        .vectorize(xr, v)
        .unroll(xr)
        .unroll(yr)
        .fuse(xo, yo, xy)
        .parallel(xy);
    prod.compute_at(output, yt).vectorize(x, v).unroll(x).unroll(y);
    prod.update()
        .reorder(x, y, r)
        .vectorize(x, v)
        .unroll(x)
        .unroll(y);
  }

 private:
  static constexpr int size_m = 1024, size_n = 1024, size_k = 1024;
  Var x{"x"}, y{"y"}, xt{"xt"}, yt{"yt"};
  Func prod{"prod"};
  RDom r;
};

}  // namespace

CANDOR_CORPUS_GENERATOR(GemmBiasRelu, gemm_bias_relu, "SGEMM 1024x1024x1024 with a bias and ReLU epilogue, float, row-major")
