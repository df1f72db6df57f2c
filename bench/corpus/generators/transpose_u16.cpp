// A 4096x4096 uint16 image transposed, with a gain and offset applied on the way and the
// result saturated to the 16-bit range: a memory-bound reshuffle.
#include "corpus_generator.h"

namespace {

using namespace Halide;

class TransposeU16 : public Generator<TransposeU16> {
 public:
  Input<Buffer<uint16_t>> input{"input", 2};
  Output<Buffer<uint16_t>> output{"output", 2};

  void generate() {
    Expr value = cast<int32_t>(input(y, x)) * 300 - 2000;
    output(x, y) = cast<uint16_t>(clamp(value, 0, 65535));

    input.set_estimates({{0, size}, {0, size}});
    output.set_estimates({{0, size}, {0, size}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int v = natural_vector_size<uint16_t>();
    // Square blocks of a vector's width: the block is read as whole rows of the input
    // (a wrapper loaded by vectors) and written as whole rows of the output, so both sides
    // stream full cache lines; bands of blocks go to the cores.
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, xb{"xb"}, yb{"yb"};
    output.tile(x, y, xo, yo, xi, yi, v, v).vectorize(xi).unroll(yi);
    output.split(yo, yb, yo, 4).reorder(xi, yi, xo, yo, yb).parallel(yb);
    Func block = input.in();
    const std::vector<Var> p = block.args();
    block.compute_at(output, xo).vectorize(p[0]).unroll(p[1]);
  }

 private:
  static constexpr int size = 4096;
  Var x{"x"}, y{"y"};
};

}  // namespace

CANDOR_CORPUS_GENERATOR(TransposeU16, transpose_u16, "4096x4096 uint16 transpose with gain/offset and saturation, memory-bound")
