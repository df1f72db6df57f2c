// 2x upsampling of a float RGB image with separable Catmull-Rom bicubic interpolation,
// pixel centres aligned, clamped borders: each output phase has its own fixed 4-tap kernel.
#include "corpus_generator.h"

namespace {

using namespace Halide;

// Catmull-Rom weights for taps at -1, 0, 1, 2 around a sample at fractional offset t.
std::vector<float> catmull_rom(float t) {
  const float t2 = t * t, t3 = t2 * t;
  return {0.5f * (-t3 + 2 * t2 - t), 0.5f * (3 * t3 - 5 * t2 + 2), 0.5f * (-3 * t3 + 4 * t2 + t),
          0.5f * (t3 - t2)};
}

class BicubicUpsample2x : public Generator<BicubicUpsample2x> {
 public:
  Input<Buffer<float>> input{"input", 3};
  Output<Buffer<float>> output{"output", 3};

  void generate() {
    clamped = BoundaryConditions::repeat_edge(input);

    // Output pixel 2i samples the input at i - 1/4, pixel 2i + 1 at i + 1/4.
    const std::vector<float> even = catmull_rom(0.75f), odd = catmull_rom(0.25f);
    auto interpolate = [&](const std::function<Expr(Expr)>& at, Expr pos) {
      Expr i = pos / 2;
      Expr e = even[0] * at(i - 2) + even[1] * at(i - 1) + even[2] * at(i) + even[3] * at(i + 1);
      Expr o = odd[0] * at(i - 1) + odd[1] * at(i) + odd[2] * at(i + 1) + odd[3] * at(i + 2);
      return select(pos % 2 == 0, e, o);
    };

    upsampled_x(x, y, c) = interpolate([&](Expr i) { return clamped(i, y, c); }, x);
    output(x, y, c) = interpolate([&](Expr j) { return upsampled_x(x, j, c); }, y);

    input.set_estimates({{0, 1280}, {0, 720}, {0, 3}});
    output.set_estimates({{0, 2560}, {0, 1440}, {0, 3}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int v = natural_vector_size<float>();
    // Strips of output rows per core; the horizontal pass slides down each strip a row at a
    // time (each of its rows is computed once and read by two output rows from cache), and
    // both phases of a vector are computed from dense loads and blended by the select.
    output.split(y, yo, yi, 32)
        .reorder(x, yi, c, yo)
        .fuse(c, yo, t)
        .parallel(t)
        .vectorize(x, v);
    upsampled_x.store_at(output, t).compute_at(output, yi).vectorize(x, v);
  }

 private:
  Var x{"x"}, y{"y"}, c{"c"}, yo{"yo"}, yi{"yi"}, t{"t"};
  Func clamped{"clamped"}, upsampled_x{"upsampled_x"};
};

}  // namespace

CANDOR_CORPUS_GENERATOR(BicubicUpsample2x, bicubic_upsample2x, "2x separable Catmull-Rom bicubic upsampling, float RGB 1280x720 -> 2560x1440, clamped borders")
