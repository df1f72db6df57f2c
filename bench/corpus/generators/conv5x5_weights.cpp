// A dense (non-separable) 5x5 convolution of a float RGB image by a user-supplied weight
// matrix, with clamped borders: the generic "filter2D" kernel of image-processing libraries.
#include "corpus_generator.h"

namespace {

using namespace Halide;

class Conv5x5Weights : public Generator<Conv5x5Weights> {
 public:
  Input<Buffer<float>> input{"input", 3};
  Input<Buffer<float>> weights{"weights", 2};  // (kx, ky), 5x5
  Output<Buffer<float>> output{"output", 3};

  void generate() {
    clamped = BoundaryConditions::repeat_edge(input);

    r = RDom(0, 5, 0, 5, "r");
    conv(x, y, c) = 0.0f;
    conv(x, y, c) += weights(r.x, r.y) * clamped(x + r.x - 2, y + r.y - 2, c);

    // The weights are not normalized by the caller; keep the response in the input's range.
    output(x, y, c) = conv(x, y, c) * (1.0f / 25.0f);

    input.set_estimates({{0, 1920}, {0, 1080}, {0, 3}});
    weights.set_estimates({{0, 5}, {0, 5}});
    output.set_estimates({{0, 1920}, {0, 1080}, {0, 3}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int v = natural_vector_size<float>();
    // Strips of rows per core; register tiles of one vector by four rows accumulate all 25
    // taps (the window is unrolled), so each loaded input vector feeds up to four rows of
    // output, and the clamp of the borders is peeled off the steady-state loop.
    output.split(y, yo, yi, 16)
        .reorder(x, yi, c, yo)
        .fuse(c, yo, t)
        .parallel(t)
        .tile(x, yi, xo, yii, xi, yiii, v, 4)
        .vectorize(xi)
        .unroll(yiii);
    conv.compute_at(output, xo).vectorize(x).unroll(y);
    conv.update().reorder(x, y, r.x, r.y).vectorize(x).unroll(y).unroll(r.x).unroll(r.y);
  }

 private:
  Var x{"x"}, y{"y"}, c{"c"}, yo{"yo"}, yi{"yi"}, t{"t"};
  Var xo{"xo"}, xi{"xi"}, yii{"yii"}, yiii{"yiii"};
  Func clamped{"clamped"}, conv{"conv"};
  RDom r;
};

}  // namespace

CANDOR_CORPUS_GENERATOR(Conv5x5Weights, conv5x5_weights, "dense 5x5 convolution by an input weight matrix, float RGB 1920x1080, clamped borders")
