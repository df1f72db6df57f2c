// Batched matrix multiply, C[b] = A[b] B[b], for 16 independent 256x256x256 float products
// (as in the attention blocks of a transformer), row-major with the batch outermost.
#include "corpus_generator.h"

namespace {

using namespace Halide;

class BatchedMatmul : public Generator<BatchedMatmul> {
 public:
  Input<Buffer<float>> a{"a", 3};  // (k, row, batch)
  Input<Buffer<float>> b{"b", 3};  // (column, k, batch)
  Output<Buffer<float>> output{"output", 3};  // (column, row, batch)

  void generate() {
    r = RDom(0, size);
    prod(x, y, n) = 0.0f;
    prod(x, y, n) += a(r, y, n) * b(x, r, n);
    output(x, y, n) = prod(x, y, n);

    a.set_estimates({{0, size}, {0, size}, {0, batch}});
    b.set_estimates({{0, size}, {0, size}, {0, batch}});
    output.set_estimates({{0, size}, {0, size}, {0, batch}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int v = natural_vector_size<float>();
    // One product per task is plenty of parallelism; inside it, register tiles of 2 vectors
    // by 8 rows accumulate over the whole depth, the row tiles innermost so that a column
    // panel of B (its whole depth) stays in cache for all of them.
    Var xr{"xr"}, yr{"yr"}, xt{"xt"}, yt{"yt"};
    output.tile(x, y, xt, yt, xr, yr, 2 * v, 8)
        .reorder(xr, yr, yt, xt, n)
        .vectorize(xr, v)
        .unroll(xr)
        .unroll(yr)
        .parallel(n);
    prod.compute_at(output, yt).vectorize(x, v).unroll(x).unroll(y);
    prod.update().reorder(x, y, r).vectorize(x, v).unroll(x).unroll(y);
  }

 private:
  static constexpr int size = 256, batch = 16;
  Var x{"x"}, y{"y"}, n{"n"};
  Func prod{"prod"};
  RDom r;
};

}  // namespace

CANDOR_CORPUS_GENERATOR(BatchedMatmul, batched_matmul, "batched matrix multiply, 16 x (256x256 by 256x256), float, row-major")
