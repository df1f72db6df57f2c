// Unsharp mask of a 16-bit RGB image: a separable 5-tap [1 4 6 4 1] Gaussian in fixed
// point, then in + amount * (in - blur) in float, saturated back to uint16.
#include "corpus_generator.h"

namespace {

using namespace Halide;

class UnsharpU16 : public Generator<UnsharpU16> {
 public:
  Input<Buffer<uint16_t>> input{"input", 3};
  Input<float> amount{"amount", 1.5f};
  Output<Buffer<uint16_t>> output{"output", 3};

  void generate() {
    Func clamped = BoundaryConditions::repeat_edge(input);
    in32(x, y, c) = cast<uint32_t>(clamped(x, y, c));

    blur_x(x, y, c) = in32(x - 2, y, c) + 4 * in32(x - 1, y, c) + 6 * in32(x, y, c) + 4 * in32(x + 1, y, c) +
                      in32(x + 2, y, c);
    Expr sum = blur_x(x, y - 2, c) + 4 * blur_x(x, y - 1, c) + 6 * blur_x(x, y, c) + 4 * blur_x(x, y + 1, c) +
               blur_x(x, y + 2, c);
    blur(x, y, c) = cast<uint16_t>((sum + 128) >> 8);

    Expr in_f = cast<float>(clamped(x, y, c));
    Expr sharp = in_f + amount * (in_f - cast<float>(blur(x, y, c)));
    output(x, y, c) = saturating_cast<uint16_t>(sharp + 0.5f);

    input.set_estimates({{0, 1920}, {0, 1080}, {0, 3}});
    amount.set_estimate(1.5f);
    output.set_estimates({{0, 1920}, {0, 1080}, {0, 3}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int v = natural_vector_size<uint16_t>();
    // Strips of rows per core and channel; the horizontal pass slides down each strip as a
    // five-row line buffer, so the vertical pass and the sharpen read it from L1.
    output.split(y, yo, yi, 64).reorder(x, yi, yo, c).fuse(yo, c, t).parallel(t).vectorize(x, v);
    blur_x.store_at(output, t).compute_at(output, yi).vectorize(x, v);
  }

 private:
  Var x{"x"}, y{"y"}, c{"c"}, yo{"yo"}, yi{"yi"}, t{"t"};
  Func in32{"in32"}, blur_x{"blur_x"}, blur{"blur"};
};

}  // namespace

CANDOR_CORPUS_GENERATOR(UnsharpU16, unsharp_u16, "unsharp mask: 5-tap fixed-point Gaussian, float sharpen, uint16 RGB 1920x1080")
