// Dense single-precision matrix multiply C = A * B (A: M x K, B: K x N), as an explicit
// reduction Func and an output Func, so a schedule can accumulate a register tile.
#include "app_util.h"

namespace candor::apps::detail {

using namespace Halide;

namespace {

constexpr int kSize = 512;  // M = N = K

AppInstance build() {
  AppInstance inst;
  // Halide's first dimension is the innermost (column) index: a(k, i) is A[i][k].
  ImageParam a(Float(32), 2, "a"), b(Float(32), 2, "b");
  bind_input(a, uniform_buffer({kSize, kSize}, 404, -1.0f, 1.0f));
  bind_input(b, uniform_buffer({kSize, kSize}, 405, -1.0f, 1.0f));
  inst.inputs = {a, b};

  Var x("x"), y("y");
  RDom k(0, kSize, "k");
  Func dot("dot"), output("matmul");
  dot(x, y) = 0.0f;
  dot(x, y) += a(k, y) * b(x, k);
  output(x, y) = dot(x, y);

  set_output_estimates(output, {kSize, kSize});
  inst.outputs = {output};
  inst.output_sizes = {{kSize, kSize}};
  register_funcs(inst, {dot, output});

  inst.apply_expert_schedule = [=](const Target& target) mutable {
    if (target.has_gpu_feature()) return;  // CPU-only expert schedule
    const int v = lanes(target, Float(32));
    Var xo("xo"), yo("yo"), xi("xi"), yi("yi"), t("t");
    // A (2v x 6) register tile of C: 12 vector accumulators, 2 vector loads of B and 6
    // broadcasts of A per k, which fits AVX2's 16 registers. Tiles are handed out in
    // parallel by rows of tiles.
    output.tile(x, y, xo, yo, xi, yi, 2 * v, 6, TailStrategy::ShiftInwards)
        .vectorize(xi, v)
        .unroll(xi)
        .unroll(yi)
        .parallel(yo);
    dot.compute_at(output, xo).vectorize(x, v).unroll(x).unroll(y);
    dot.update().reorder(x, y, k).vectorize(x, v).unroll(x).unroll(y);
  };
  return inst;
}

}  // namespace

App make_matmul_app() {
  return {"matmul", "512x512x512 single-precision matrix multiply", build};
}

}  // namespace candor::apps::detail
