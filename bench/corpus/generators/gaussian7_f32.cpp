// A 7-tap separable Gaussian blur of a float RGB image with mirrored borders: the
// textbook separable stencil, written as image-processing code usually is.
#include "corpus_generator.h"

namespace {

using namespace Halide;

class Gaussian7 : public Generator<Gaussian7> {
 public:
  Input<Buffer<float>> input{"input", 3};
  Output<Buffer<float>> output{"output", 3};

  void generate() {
    const float taps[4] = {0.383f, 0.242f, 0.061f, 0.006f};
    Func mirrored = BoundaryConditions::mirror_interior(input);
    Expr sx = taps[0] * mirrored(x, y, c);
    for (int i = 1; i < 4; i++) sx += taps[i] * (mirrored(x - i, y, c) + mirrored(x + i, y, c));
    blur_x(x, y, c) = sx;
    Expr sy = taps[0] * blur_x(x, y, c);
    for (int i = 1; i < 4; i++) sy += taps[i] * (blur_x(x, y - i, c) + blur_x(x, y + i, c));
    output(x, y, c) = sy;

    input.set_estimates({{0, 1920}, {0, 1080}, {0, 3}});
    output.set_estimates({{0, 1920}, {0, 1080}, {0, 3}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int v = natural_vector_size<float>();
    // Strips of rows per core; blur_x is computed per strip with the 6-row halo, and each
    // row of the output reads it while it is still in cache.
    output.split(y, yo, yi, 32).parallel(yo).vectorize(x, v * 2);
    output.reorder(x, yi, c, yo);
    blur_x.compute_at(output, c).vectorize(x, v * 2);
  }

 private:
  Var x{"x"}, y{"y"}, c{"c"}, yo{"yo"}, yi{"yi"};
  Func blur_x{"blur_x"};
};

}  // namespace

CANDOR_CORPUS_GENERATOR(Gaussian7, gaussian7_f32, "7-tap separable Gaussian blur, float RGB 1920x1080, mirrored borders")
